import type { StakeResult, StakePosition } from '@hope/api'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { accountKeys } from '../../lib/api/account-keys.ts'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { expectSaidOnce } from '../../test/said.ts'
import { fail, fakeApi, ok, heldReply, type ApiCall, type Reply } from '../../test/fake-api.ts'
import { balanceList, gameInfo } from '../../../test-support/fixtures.ts'
import { stakingKeys } from '../../lib/api/staking-keys.ts'
import { renderAt } from '../../test/render-at.tsx'
import { StakePage } from './stake-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

/** Stage 2 at 0.11 USDT, a quarter sold; entries from 100 USDT in steps of 100. */
const INFO = gameInfo({
  stage: 2,
  price: '0.11',
  stageSold: '250123.456',
  nextPrice: '0.12',
  mine: { principal: '300', released: '12.5', activePositions: 2, outPositions: 1 },
})

const position = (id: number, changes: Partial<StakePosition> = {}): StakePosition => ({
  id,
  principal: '200',
  hope: '1818.181818181818181818',
  price: '0.11',
  released: '50',
  cap: '500',
  status: 'active',
  createdAt: '2026-03-01T08:30:00Z',
  ...changes,
})

/** 200 USDT crossing from stage 2 into stage 3. */
const done = (call: ApiCall): StakeResult => ({
  position: position(9, {
    principal: call.params.amount ?? '',
    hope: '1790.909090909090909090',
    released: '0',
  }),
  fills: [
    { stage: 2, price: '0.11', hope: '1000', usdt: '110' },
    { stage: 3, price: '0.12', hope: '750', usdt: '90' },
  ],
  replayed: false,
})

function serve(change: (call: ApiCall) => Reply, positions = [position(2), position(1)]) {
  return fakeApi({
    'game/info': () => ok(INFO),
    'userAccount/balance': () => ok(balanceList()),
    'game/myStake': () =>
      ok({ list: positions, total: positions.length, pageNum: 1, pageSize: 20 }),
    'game/change': change,
  })
}

function renderStake() {
  renderAt('/stake', <StakePage />)
}

async function typeAmount(amount: string) {
  const input = await screen.findByLabelText('入场金额')
  await userEvent.clear(input)
  if (amount) await userEvent.type(input, amount)
}

/** Opens the confirmation sheet; its animation does not run in jsdom, so taps inside are fireEvent. */
async function openSheet(amount = '200') {
  await typeAmount(amount)
  await userEvent.click(submitButton())
  return screen.findByTestId('stake-confirm-sheet')
}

/** The entry form (a role query over the whole screen is slow in jsdom). */
const form = () => within(screen.getByLabelText('入场金额').closest('section') as HTMLElement)
const submitButton = () => form().getByRole('button', { name: '确认入场' })
/** The sheet's confirmation (its name is its label, or the retry after a failure). */
const confirmButton = (name = '确认') =>
  within(screen.getByTestId('stake-confirm-sheet')).getByRole('button', { name })
const text = (testId: string) => screen.getByTestId(testId).textContent
/** The figure said under a label ("入场本金 (USDT)" → "300"). */
const figure = (label: string, scope: HTMLElement = document.body) =>
  within(scope).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent

describe('stake page', () => {
  beforeEach(() => vi.mocked(showToast).mockClear())
  afterEach(() => queryClient.clear())

  test('shows the stage, its price and progress, my summary and the entry rules', async () => {
    serve(() => ok(null))
    renderStake()
    expect(await screen.findByText('第 2 阶段')).toBeTruthy()
    expect(text('stake-price')).toBe('1 HOPE = 0.11 USDT')
    expect(screen.getByTestId('stake-progress').getAttribute('aria-valuenow')).toBe('25.01')
    expect(text('stake-sold')).toBe('本阶段已售 250,123.45 / 1,000,000 HOPE（25.01%）')
    expect(text('stake-next-price')).toBe('下一阶段 0.12 USDT')
    expect(figure('入场本金 (USDT)')).toBe('300')
    expect(figure('累计释放 (USDT)')).toBe('12.5')
    expect(figure('释放中 (笔)')).toBe('2')
    expect(figure('已出局 (笔)')).toBe('1')
    expect(screen.getByText('最低 100 USDT，须为 100 USDT 的整数倍')).toBeTruthy()
    expect(screen.getByText('可用 500 USDT')).toBeTruthy()
  })

  test('lists my positions with their release progress and status', async () => {
    serve(() => ok(null), [position(2), position(1, { status: 'out', released: '500' })])
    renderStake()
    const rows = await screen.findAllByTestId('stake-position')
    expect(rows).toHaveLength(2)
    const [active, out] = rows as [HTMLElement, HTMLElement]
    expect(within(active).getByTestId('stake-position-principal').textContent).toBe('200 USDT')
    expect(figure('HOPE 数量', active)).toBe('1,818.181818 HOPE')
    expect(figure('入场价格', active)).toBe('0.11 USDT')
    expect(figure('已释放 / 上限', active)).toBe('50 / 500 USDT')
    expect(within(active).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('10')
    const statuses = rows.map((row) => within(row).getByTestId('stake-position-status'))
    expect(statuses.map((el) => el.textContent)).toEqual(['释放中', '已出局'])
    expect(statuses.map((el) => el.dataset.tone)).toEqual(['moving', 'off'])
    expect(within(out).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100')
  })

  test('an empty list says so', async () => {
    serve(() => ok(null), [])
    renderStake()
    expect(await screen.findByText('暂无仓位')).toBeTruthy()
  })

  test('an amount that is not a USDT decimal is refused with the reason, as typed', async () => {
    serve(() => ok(null))
    renderStake()
    const input = (await screen.findByLabelText('入场金额')) as HTMLInputElement
    await userEvent.type(input, '1e2.1234567')
    expect(input.value).toBe('1e2.1234567')
    expect(form().getByRole('alert').textContent).toBe('请直接输入数字，不能使用科学计数法（e）')
    expect(screen.queryByTestId('stake-estimate')).toBeNull()
    await typeAmount('12.1234567')
    expect(form().getByRole('alert').textContent).toBe('最多 6 位小数')
  })

  test('the estimate follows at the real-time price, only for an amount that can be entered', async () => {
    serve(() => ok(null))
    renderStake()
    const input = (await screen.findByLabelText('入场金额')) as HTMLInputElement
    await typeAmount('200')
    expect(text('stake-estimate')).toBe('≈ 1,818.181818 HOPE')
    await userEvent.click(form().getByRole('button', { name: '最大' }))
    expect(input.value).toBe('500')
    expect(text('stake-estimate')).toBe('≈ 4,545.454545 HOPE')
    await typeAmount('50')
    expect(screen.queryByTestId('stake-estimate')).toBeNull()
    expect(form().getByRole('status').textContent).toBe('入场金额最低 100 USDT')
    await typeAmount('150')
    expect(form().getByRole('status').textContent).toBe('入场金额须为 100 USDT 的整数倍')
  })

  test('over the balance says what is missing and leads to recharge', async () => {
    serve(() => ok(null))
    renderStake()
    await typeAmount('600')
    expect(screen.queryByTestId('stake-estimate')).toBeNull()
    expect(text('stake-shortfall')).toBe('还差 100 USDT。')
    await userEvent.click(form().getByRole('button', { name: '去充值' }))
    expect(text('where')).toBe('/recharge')
  })

  test('says what is wrong before any request', async () => {
    const api = serve(() => ok(null))
    renderStake()
    await screen.findByLabelText('入场金额')
    await userEvent.click(submitButton())
    expectSaidOnce('请输入数量')
    for (const [amount, said] of [
      ['50', '入场金额最低 100 USDT'],
      ['150', '入场金额须为 100 USDT 的整数倍'],
    ] as const) {
      await typeAmount(amount)
      await userEvent.click(submitButton())
      expectSaidOnce(said)
    }
    await typeAmount('600')
    await userEvent.click(submitButton())
    expectSaidOnce('USDT 余额不足')
    expect(screen.queryByTestId('stake-confirm-sheet')).toBeNull()
    expect(api.callsTo('game/change')).toHaveLength(0)
  })

  test('the sheet shows amount, price, estimated HOPE, daily release and cap', async () => {
    serve(() => ok(null))
    renderStake()
    const sheet = within(await openSheet('200'))
    expect(sheet.getByRole('heading', { name: '确认共识入场' })).toBeTruthy()
    expect(sheet.getByTestId('stake-confirm-amount').textContent).toBe('200 USDT')
    expect(sheet.getByTestId('stake-confirm-price').textContent).toBe('1 HOPE = 0.11 USDT')
    expect(sheet.getByTestId('stake-confirm-hope').textContent).toBe('≈ 1,818.181818 HOPE')
    expect(sheet.getByTestId('stake-confirm-daily').textContent).toBe('0.5% / 天')
    expect(sheet.getByTestId('stake-confirm-cap').textContent).toBe('2.5 倍（500 USDT）')
  })

  test('a confirmed entry posts once with an idempotency key and shows the position and its fills', async () => {
    const { reply, release } = heldReply(done)
    const api = serve(reply)
    renderStake()
    await openSheet('200')
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    const confirm = confirmButton()
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    await waitFor(() => expect(api.callsTo('game/change')).toHaveLength(1))
    release()
    const result = within(await screen.findByTestId('stake-result'))
    expect(api.callsTo('game/change')).toHaveLength(1)
    const [call] = api.callsTo('game/change')
    expect(call?.params.amount).toBe('200')
    expect(call?.params.idempotencyKey).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(result.getByTestId('stake-result-amount').textContent).toBe('200 USDT')
    expect(result.getByTestId('stake-result-hope').textContent).toBe('1,790.90909 HOPE')
    expect(result.getAllByTestId('stake-result-fill').map((li) => li.textContent)).toEqual([
      '第 2 阶段 · 0.11 USDT1,000 HOPE · 110 USDT',
      '第 3 阶段 · 0.12 USDT750 HOPE · 90 USDT',
    ])
    expect(invalidate).toHaveBeenCalledWith({ queryKey: accountKeys.balance() })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: stakingKeys.info() })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: stakingKeys.positions() })

    // Another entry is another request.
    await userEvent.click(result.getByRole('button', { name: '继续入场' }))
    await openSheet('100')
    fireEvent.click(confirmButton())
    await waitFor(() => expect(api.callsTo('game/change')).toHaveLength(2))
    release()
    await screen.findByTestId('stake-result')
    const keys = api.callsTo('game/change').map((c) => c.params.idempotencyKey)
    expect(keys[1]).not.toBe(keys[0])
  })

  test('after a network error the same entry is retried with the same key', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    let reachable = false
    const api = serve((call) => {
      if (!reachable) throw new TypeError('Failed to fetch')
      return ok(done(call))
    })
    renderStake()
    const sheet = await openSheet('200')
    fireEvent.click(confirmButton())
    expect((await within(sheet).findByRole('alert')).textContent).toBe(
      '网络异常，入场结果未知。请点击重试，同一笔入场不会重复扣款。',
    )
    expect(showToast).not.toHaveBeenCalled()
    reachable = true
    fireEvent.click(confirmButton('重试'))
    await screen.findByTestId('stake-result')
    const keys = api.callsTo('game/change').map((c) => c.params.idempotencyKey)
    expect(keys).toHaveLength(2)
    expect(keys[1]).toBe(keys[0])
  })

  test("a refusal shows only the server's message and closes the sheet", async () => {
    const api = serve(() => fail(409, 'insufficient_balance', '余额不足'))
    renderStake()
    await openSheet('200')
    fireEvent.click(confirmButton())
    await waitFor(() => expect(screen.queryByTestId('stake-confirm-sheet')).toBeNull())
    expect(api.callsTo('game/change')).toHaveLength(1)
    expect(vi.mocked(showToast).mock.calls).toEqual([['余额不足']])
    expect(screen.queryByTestId('stake-result')).toBeNull()
  })

  test.each([
    ['质押记录', '/pledgeRecord'],
    ['兑换', '/exchange'],
  ])('%s opens %s', async (name, path) => {
    serve(() => ok(null))
    renderStake()
    await userEvent.click(await screen.findByRole('button', { name }))
    expect(text('where')).toBe(path)
  })
})
