import type { PurchaseResult, VipInfo } from '@hope/api'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { accountKeys } from '../../lib/api/account-keys.ts'
import { loadNamespace } from '../../lib/i18n/i18n.ts'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { expectSaidOnce } from '../../test/said.ts'
import { fail, fakeApi, ok, heldReply, type ApiCall, type Reply } from '../../test/fake-api.ts'
import { balanceList } from '../../../test-support/fixtures.ts'
import { membershipKeys } from '../../lib/api/membership.ts'
import { vipInfo } from '../../../test-support/holder-fixtures.ts'
import { renderAt } from '../../test/render-at.tsx'
import { HolderPage } from './holder-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

/** 500 USDT, 120.5 in the node account and 40 in the shareholder account. */
const BALANCE = balanceList({
  node: { balance: '120.5', available: '120.5' },
  shareholder: { balance: '40', available: '40' },
})

const bought = (call: ApiCall): PurchaseResult => ({
  paid: call.params.type === '1' ? '300' : '0',
  hope: '2727.272727272727272727',
  level: 2,
  nodes: [1, 2],
  replayed: false,
})

function serve(
  replies: {
    info?: () => Reply
    buyNode?: (call: ApiCall) => Reply
    collect?: (call: ApiCall) => Reply
    balance?: typeof BALANCE
  } = {},
) {
  return fakeApi({
    'game/vipInfo': replies.info ?? (() => ok(vipInfo())),
    'userAccount/balance': () => ok(replies.balance ?? BALANCE),
    'game/buyNode': replies.buyNode ?? ((call) => ok(bought(call))),
    'userAccount/collect':
      replies.collect ??
      ((call) =>
        ok({
          transferId: '77',
          account: call.params.account,
          amount: call.params.amount,
          replayed: false,
        })),
  })
}

function renderHolder() {
  renderAt('/holder', <HolderPage />)
}

const text = (testId: string) => screen.getByTestId(testId).textContent

/** A node type's card, named by the node. */
const nodeCard = (name: string) => screen.findByRole('article', { name })

/** Taps the buy button of a node type's card. */
async function buy(name: string) {
  fireEvent.click(within(await nodeCard(name)).getByRole('button', { name: '立即开通' }))
}

const ACCOUNT_NAMES = { node: '节点账户', shareholder: '股东账户' }

/** An account's balance and its collect button, named by the account. */
const accountRow = async (account: 'node' | 'shareholder') =>
  within(await screen.findByRole('group', { name: ACCOUNT_NAMES[account] }))

/** Opens the collect sheet; its animation does not run in jsdom, so taps inside are fireEvent. */
async function openCollect(account: 'node' | 'shareholder') {
  fireEvent.click((await accountRow(account)).getByRole('button', { name: '领取' }))
  return screen.findByTestId('collect-sheet')
}

function typeCollect(amount: string) {
  fireEvent.change(screen.getByPlaceholderText('请输入数量'), { target: { value: amount } })
}

describe('holder page', () => {
  beforeAll(() => Promise.all([loadNamespace('holder'), loadNamespace('money')]))
  beforeEach(() => vi.mocked(showToast).mockClear())
  afterEach(() => queryClient.clear())

  test('shows my level, my nodes and the node and shareholder balances', async () => {
    serve()
    renderHolder()
    expect((await screen.findByTestId('holder-account-node')).textContent).toBe('120.5')
    expect(text('holder-account-shareholder')).toBe('40')
    expect(text('holder-level')).toBe('白银会员')
    expect(text('holder-nodes-held')).toBe('守护节点')
  })

  test('each node type with its name, price and reward share; a held one has no buy', async () => {
    serve()
    renderHolder()
    const cards = await screen.findAllByRole('article')
    const field = (card: HTMLElement, id: string) => within(card).getByTestId(id).textContent
    expect(cards.map((card) => field(card, 'node-name'))).toEqual([
      '股东节点',
      '守护节点',
      '董事节点',
    ])
    expect(cards.map((card) => field(card, 'node-price'))).toEqual([
      '300 USDT',
      '3,000 USDT',
      '5,000 USDT',
    ])
    expect(cards.map((card) => field(card, 'node-rate'))).toEqual([
      '新增币分配价值的 1%',
      '新增币分配价值的 2%',
      '新增币分配价值的 3%',
    ])
    const [first, held, third] = cards as [HTMLElement, HTMLElement, HTMLElement]
    expect(within(held).getByTestId('node-owned').textContent).toBe('已持有')
    expect(within(held).queryByRole('button', { name: '立即开通' })).toBeNull()
    expect(within(first).queryByText('已持有')).toBeNull()
    expect(within(first).getByRole('button', { name: '立即开通' })).toBeTruthy()
    expect(within(third).getByRole('button', { name: '立即开通' })).toBeTruthy()
  })

  test('a granted node reads as granted', async () => {
    serve({ info: () => ok(vipInfo({ nodes: [{ type: 3, source: 'granted' }] })) })
    renderHolder()
    const card = within(await nodeCard('董事节点'))
    expect(card.getByText('已授予')).toBeTruthy()
    expect(card.queryByRole('button', { name: '立即开通' })).toBeNull()
    expect(
      within(await nodeCard('守护节点')).getByRole('button', { name: '立即开通' }),
    ).toBeTruthy()
  })

  test('a confirmed node purchase posts once and shows what was paid', async () => {
    const { reply, release } = heldReply(bought)
    const api = serve({ buyNode: reply })
    renderHolder()
    await buy('股东节点')
    const sheet = within(await screen.findByTestId('node-confirm-sheet'))
    expect(sheet.getByRole('heading', { name: '开通股东节点' })).toBeTruthy()
    expect(sheet.getByTestId('node-confirm-amount').textContent).toBe('300 USDT')
    expect(sheet.getByTestId('node-confirm-available').textContent).toBe('500 USDT')
    expect(sheet.queryByRole('status')).toBeNull()
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    const confirm = sheet.getByRole('button', { name: '确认开通' })
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    await waitFor(() => expect(api.callsTo('game/buyNode')).toHaveLength(1))
    release()
    const result = within(await screen.findByTestId('node-result'))
    expect(api.callsTo('game/buyNode')).toHaveLength(1)
    const [call] = api.callsTo('game/buyNode')
    expect(call?.params.type).toBe('1')
    expect(call?.params.idempotencyKey).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(result.getByTestId('node-result-amount').textContent).toBe('300 USDT')
    expect(result.getByTestId('node-result-hope').textContent).toBe('2,727.272727 HOPE')
    expect(invalidate).toHaveBeenCalledWith({ queryKey: membershipKeys.all })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: accountKeys.balance() })
    expect(result.getByRole('heading', { name: '开通成功' })).toBeTruthy()
    fireEvent.click(result.getByRole('button', { name: '完成' }))
    await waitFor(() => expect(screen.queryByTestId('node-result')).toBeNull())
  })

  test('a node the USDT cannot pay is refused before any request', async () => {
    const api = serve()
    renderHolder()
    await buy('董事节点')
    const sheet = within(await screen.findByTestId('node-confirm-sheet'))
    expect(sheet.getByTestId('node-confirm-amount').textContent).toBe('5,000 USDT')
    expect(sheet.getByRole('status').textContent).toContain('USDT 余额不足')
    expect(sheet.getByText('还差 4,500 USDT。')).toBeTruthy()
    expect(sheet.getByRole('button', { name: '去充值' })).toBeTruthy()
    const confirm = sheet.getByRole('button', { name: '确认开通' })
    expect(confirm.hasAttribute('disabled')).toBe(true)
    // Whatever a tap would start runs on the clock: run it a long while on a fake one.
    vi.useFakeTimers({ shouldAdvanceTime: true })
    fireEvent.click(confirm)
    await act(() => vi.advanceTimersByTimeAsync(1_000))
    expect(api.callsTo('game/buyNode')).toHaveLength(0)
  })

  test('after a network error the same purchase is retried with the same key', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    let reachable = false
    const api = serve({
      buyNode: (call) => {
        if (!reachable) throw new TypeError('Failed to fetch')
        return ok(bought(call))
      },
    })
    renderHolder()
    await buy('股东节点')
    const sheet = within(await screen.findByTestId('node-confirm-sheet'))
    fireEvent.click(sheet.getByRole('button', { name: '确认开通' }))
    expect((await sheet.findByRole('alert')).textContent).toBe(
      '网络异常，开通结果未知。请点击重试，同一笔开通不会重复扣款。',
    )
    reachable = true
    fireEvent.click(sheet.getByRole('button', { name: '重试' }))
    await screen.findByTestId('node-result')
    const keys = api.callsTo('game/buyNode').map((c) => c.params.idempotencyKey)
    expect(keys).toHaveLength(2)
    expect(keys[1]).toBe(keys[0])
  })

  test("a refused purchase shows only the server's message and closes the sheet", async () => {
    const api = serve({ buyNode: () => fail(409, 'node_owned', '您已拥有该节点') })
    renderHolder()
    await buy('股东节点')
    const sheet = within(await screen.findByTestId('node-confirm-sheet'))
    fireEvent.click(sheet.getByRole('button', { name: '确认开通' }))
    await waitFor(() => expect(showToast).toHaveBeenCalledWith('您已拥有该节点'))
    await waitFor(() => expect(screen.queryByTestId('node-confirm-sheet')).toBeNull())
    expect(api.callsTo('game/buyNode')).toHaveLength(1)
    expect(showToast).toHaveBeenCalledTimes(1)
  })

  test('collect checks the amount before any request', async () => {
    const api = serve()
    renderHolder()
    const sheet = within(await openCollect('node'))
    expect(sheet.getByRole('heading', { name: '领取节点账户' })).toBeTruthy()
    expect(sheet.getByTestId('collect-available').textContent).toBe('120.5 USDT')
    const submit = sheet.getByRole('button', { name: '领取' })
    fireEvent.click(submit)
    expectSaidOnce('请输入数量')
    typeCollect('0')
    fireEvent.click(submit)
    expectSaidOnce('请输入正确的数量')
    typeCollect('120.6')
    // Said while typing, and again on the button.
    expect(sheet.getByRole('status').textContent).toBe('可领取余额不足')
    fireEvent.click(submit)
    expectSaidOnce('可领取余额不足')
    expect(screen.queryByTestId('collect-confirm')).toBeNull()
    expect(api.callsTo('userAccount/collect')).toHaveLength(0)
  })

  test('nothing to collect: the button is off and says why', async () => {
    serve({ balance: balanceList({ node: { balance: '120.5', available: '120.5' } }) })
    renderHolder()
    const shareholder = await accountRow('shareholder')
    expect((shareholder.getByRole('button', { name: '领取' }) as HTMLButtonElement).disabled).toBe(
      true,
    )
    expect(shareholder.getByText('当前没有可领取的收益')).toBeTruthy()
    const node = await accountRow('node')
    expect((node.getByRole('button', { name: '领取' }) as HTMLButtonElement).disabled).toBe(false)
    expect(node.queryByText('当前没有可领取的收益')).toBeNull()
  })

  test('the amount is refused with its reason, never rewritten; all fills the whole balance', async () => {
    const api = serve()
    renderHolder()
    const sheet = within(await openCollect('shareholder'))
    const input = sheet.getByPlaceholderText('请输入数量') as HTMLInputElement
    typeCollect('1e5')
    expect(input.value).toBe('1e5')
    expect(sheet.getByRole('alert').textContent).toContain('e')
    typeCollect('-5')
    expect(input.value).toBe('-5')
    expect(sheet.getByRole('alert')).toBeTruthy()
    typeCollect('12.1234567')
    expect(sheet.getByRole('alert').textContent).toContain('6')
    fireEvent.click(sheet.getByRole('button', { name: '领取' }))
    expect(screen.queryByTestId('collect-confirm-sheet')).toBeNull()
    fireEvent.click(sheet.getByRole('button', { name: '全部' }))
    expect(input.value).toBe('40')
    expect(sheet.queryByRole('alert')).toBeNull()
    expect(api.callsTo('userAccount/collect')).toHaveLength(0)
  })

  test('a confirmed collection posts once with the account, amount and one key per opening', async () => {
    const { reply, release } = heldReply((call) => ({
      transferId: '1',
      account: call.params.account,
      amount: '1',
      replayed: false,
    }))
    const api = serve({ collect: reply })
    renderHolder()
    const sheet = within(await openCollect('node'))
    fireEvent.click(sheet.getByRole('button', { name: '全部' }))
    fireEvent.click(sheet.getByRole('button', { name: '领取' }))
    expect(sheet.getByTestId('collect-confirm-amount').textContent).toBe('120.5 USDT')
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    const confirm = sheet.getByRole('button', { name: '确认领取' })
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    await waitFor(() => expect(api.callsTo('userAccount/collect')).toHaveLength(1))
    release()
    // The result: what moved and where it is logged; done closes the sheet.
    expect((await sheet.findByTestId('collect-result-amount')).textContent).toBe('1 USDT')
    expect(sheet.getByRole('heading', { name: '领取成功' })).toBeTruthy()
    expect(sheet.getByRole('button', { name: '查看明细' })).toBeTruthy()
    fireEvent.click(sheet.getByRole('button', { name: '完成' }))
    await waitFor(() => expect(screen.queryByTestId('collect-sheet')).toBeNull())
    expect(api.callsTo('userAccount/collect')).toHaveLength(1)
    const [call] = api.callsTo('userAccount/collect')
    expect(call?.params).toEqual({
      account: 'node',
      amount: '120.5',
      idempotencyKey: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/),
    })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: accountKeys.balance() })

    // Another opening is another collection.
    const again = within(await openCollect('shareholder'))
    typeCollect('10')
    fireEvent.click(again.getByRole('button', { name: '领取' }))
    fireEvent.click(again.getByRole('button', { name: '确认领取' }))
    await waitFor(() => expect(api.callsTo('userAccount/collect')).toHaveLength(2))
    release()
    const [first, second] = api.callsTo('userAccount/collect')
    expect(second?.params.account).toBe('shareholder')
    expect(second?.params.amount).toBe('10')
    expect(second?.params.idempotencyKey).not.toBe(first?.params.idempotencyKey)
  })

  test('the application e-mail with a mailto link and a copy button', async () => {
    const writeText = vi.fn(() => Promise.resolve())
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } })
    serve()
    renderHolder()
    const block = within(await screen.findByTestId('holder-email'))
    const link = block.getByRole('link', { name: 'apply@hope.example' })
    expect(link.getAttribute('href')).toBe('mailto:apply@hope.example')
    await userEvent.click(block.getByRole('button', { name: '复制' }))
    expect(writeText).toHaveBeenCalledWith('apply@hope.example')
    await waitFor(() => expect(showToast).toHaveBeenCalledWith('复制成功', 'success'))
  })

  test('no e-mail published yet says so', async () => {
    serve({ info: () => ok(vipInfo({ applicationEmail: '' })) })
    renderHolder()
    const block = await screen.findByTestId('holder-email')
    expect(block.textContent).toContain('申请邮箱暂未公布')
    expect(within(block).queryByRole('button', { name: '复制' })).toBeNull()
  })

  test('a failed load offers a retry', async () => {
    let info: () => Reply = () => fail(500, 'internal_error', '系统错误')
    serve({ info: () => info() })
    renderHolder()
    const retry = await screen.findByRole('button', { name: '加载失败，点击重试' })
    info = () => ok(vipInfo({ nodes: [] }) satisfies VipInfo)
    await userEvent.click(retry)
    expect(
      within(await nodeCard('守护节点')).getByRole('button', { name: '立即开通' }),
    ).toBeTruthy()
  })

  test('leads to the activation of a member', async () => {
    serve()
    renderHolder()
    await userEvent.click(await screen.findByRole('button', { name: '为直推会员激活账户' }))
    expect(text('where')).toBe('/active')
  })
})
