import type { RedeemResult } from '@hope/api'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { expectSaidOnce } from '../../test/said.ts'
import { fail, fakeApi, ok, type ApiCall, type Reply } from '../../test/fake-api.ts'
import { balanceList, gameInfo } from '../../../test-support/fixtures.ts'
import { renderAt } from '../../test/render-at.tsx'
import { ExchangePage } from './exchange-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

/** Price 0.1; 80 % redeemed into USDT less 5 %, 20 % pledged and released 1 % a day. */
const INFO = gameInfo({
  price: '0.100000',
  redeemShare: '0.800000',
  redeemFeeRate: '0.050000',
  pledgeDailyRate: '0.010000',
})

const done = (): RedeemResult => ({
  redeemed: '80',
  pledged: '20',
  price: '0.1',
  gross: '8',
  fee: '0.4',
  net: '7.6',
  pledge: {
    id: 5,
    amount: '20',
    released: '0',
    convertible: '20',
    releaseRate: '0.01',
    redeemed: false,
    createdAt: '2026-03-01T08:30:00Z',
  },
  replayed: false,
})

/** The community account holds 1,200.5 HOPE (fixtures). */
function serve(sqChange: (call: ApiCall) => Reply) {
  return fakeApi({
    'game/info': () => ok(INFO),
    'userAccount/balance': () => ok(balanceList()),
    'game/sqChange': sqChange,
  })
}

function renderExchange() {
  renderAt('/exchange', <ExchangePage />, { withSearch: true })
}

async function typeAmount(amount: string) {
  const input = await screen.findByLabelText('兑换数量')
  await userEvent.clear(input)
  if (amount) await userEvent.type(input, amount)
}

const text = (testId: string) => screen.getByTestId(testId).textContent
/** The exchange form (a role query over the whole screen is slow in jsdom). */
const form = () => within(screen.getByLabelText('兑换数量').closest('section') as HTMLElement)
const submitButton = () => form().getByRole('button', { name: '兑换' })
/** The figure said under a label ("实际到账" → "7.6 USDT"). */
const figure = (label: string, scope: HTMLElement = document.body) =>
  within(scope).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent
const formFigure = (label: string) =>
  figure(label, screen.getByLabelText('兑换数量').closest('section') as HTMLElement)

describe('exchange page', () => {
  beforeEach(() => vi.mocked(showToast).mockClear())
  afterEach(() => queryClient.clear())

  test('shows the community balance, the real-time price, the split and the fee rate', async () => {
    serve(() => ok(null))
    renderExchange()
    expect((await screen.findByTestId('exchange-available')).textContent).toBe('1,200.5 HOPE')
    expect(figure('实时价格')).toBe('1 HOPE = 0.1 USDT')
    expect(figure('兑换规则')).toBe('80% 兑换为 USDT，20% 进入质押池，每日释放 1%')
    expect(figure('手续费率')).toBe('5%')
  })

  test('the breakdown follows the amount, worked out like the server', async () => {
    serve(() => ok(null))
    renderExchange()
    await typeAmount('100')
    expect(formFigure('兑换部分')).toBe('80 HOPE')
    expect(formFigure('质押部分')).toBe('20 HOPE')
    expect(formFigure('兑换金额')).toBe('8 USDT')
    expect(formFigure('手续费')).toBe('0.4 USDT')
    expect(formFigure('实际到账')).toBe('7.6 USDT')
    await userEvent.click(form().getByRole('button', { name: '全部' }))
    expect((screen.getByLabelText('兑换数量') as HTMLInputElement).value).toBe('1200.5')
    expect(formFigure('实际到账')).toBe('91.238 USDT')
  })

  test('an amount with more than 6 decimals (as every form) or a minus sign is refused with the reason, as typed', async () => {
    serve(() => ok(null))
    renderExchange()
    const input = (await screen.findByLabelText('兑换数量')) as HTMLInputElement
    await userEvent.type(input, '1.1234567')
    expect(input.value).toBe('1.1234567')
    expect(form().getByRole('alert').textContent).toBe('最多 6 位小数')
    expect(screen.queryByTestId('exchange-net')).toBeNull()
    await typeAmount('-5e3')
    expect(input.value).toBe('-5e3')
    expect(form().getByRole('alert').textContent).toBe('数量不能为负数，请去掉减号')
    await userEvent.click(submitButton())
    expect(screen.queryByTestId('exchange-confirm-sheet')).toBeNull()
  })

  test('more than the community account is said while typing, with no USDT estimate', async () => {
    serve(() => ok(null))
    renderExchange()
    await typeAmount('1200.6')
    expect(form().getByRole('status').textContent).toBe('社区账户 HOPE 不足：可用 1,200.5 HOPE')
    expect(screen.queryByTestId('exchange-net')).toBeNull()
    expect(screen.queryByTestId('exchange-shortfall')).toBeNull()
  })

  test('empty and invalid amounts get the spec messages without a request', async () => {
    const api = serve(() => ok(null))
    renderExchange()
    await screen.findByLabelText('兑换数量')
    await userEvent.click(submitButton())
    expectSaidOnce('请输入兑换数量')
    for (const amount of ['0', '0.000']) {
      vi.mocked(showToast).mockClear()
      await typeAmount(amount)
      await userEvent.click(submitButton())
      expectSaidOnce('请输入正确的兑换数量')
    }
    await typeAmount('1200.500001')
    await userEvent.click(submitButton())
    expectSaidOnce('社区账户 HOPE 不足：可用 1,200.5 HOPE')
    expect(screen.queryByTestId('exchange-confirm-sheet')).toBeNull()
    expect(api.callsTo('game/sqChange')).toHaveLength(0)
  })

  test('a confirmed exchange posts once with an idempotency key and shows what the server did', async () => {
    const api = serve(() => ok(done()))
    renderExchange()
    await typeAmount('100')
    await userEvent.click(submitButton())
    const sheet = within(await screen.findByTestId('exchange-confirm-sheet'))
    expect(sheet.getByTestId('exchange-confirm-amount').textContent).toBe('100 HOPE')
    expect(sheet.getByTestId('exchange-confirm-net').textContent).toBe('7.6 USDT')
    const confirm = sheet.getByRole('button', { name: '确认兑换' })
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    const result = within(await screen.findByTestId('exchange-result'))
    expect(api.callsTo('game/sqChange')).toHaveLength(1)
    expect(api.callsTo('game/sqChange')[0]?.params).toMatchObject({ amount: '100' })
    expect(api.callsTo('game/sqChange')[0]?.params.idempotencyKey).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(result.getByTestId('exchange-result-amount').textContent).toBe('7.6 USDT')
    expect(result.getByTestId('exchange-result-net').textContent).toBe('7.6 USDT')
    expect(result.getByTestId('exchange-result-pledged').textContent).toBe('20 HOPE')
    expect(result.getByTestId('exchange-result-fee').textContent).toBe('0.4 USDT')
    await userEvent.click(result.getByRole('button', { name: '查看质押记录' }))
    expect(text('where')).toBe('/pledgeRecord?tab=pledges')
  })

  test("a refusal shows only the server's message and closes the sheet", async () => {
    serve(() => fail(409, 'insufficient_balance', '余额不足'))
    renderExchange()
    await typeAmount('100')
    await userEvent.click(submitButton())
    const sheet = within(await screen.findByTestId('exchange-confirm-sheet'))
    fireEvent.click(sheet.getByRole('button', { name: '确认兑换' }))
    await waitFor(() => expect(screen.queryByTestId('exchange-confirm-sheet')).toBeNull())
    expect(vi.mocked(showToast).mock.calls).toEqual([['余额不足']])
    expect(screen.queryByTestId('exchange-result')).toBeNull()
  })
})
