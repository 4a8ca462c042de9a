import type { RedeemResult } from '@hope/api'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { expectSaidOnce } from '../../test/said.ts'
import { fail, fakeApi, ok, type ApiCall, type Reply } from '../../test/fake-api.ts'
import { balanceList, gameInfo } from '../../../test-support/fixtures.ts'
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

function Where() {
  const { pathname, search } = useLocation()
  return <p data-testid="where">{pathname + search}</p>
}

/** The community account holds 1,200.5 HOPE (fixtures). */
function serve(sqChange: (call: ApiCall) => Reply) {
  return fakeApi({
    'game/info': () => ok(INFO),
    'userAccount/balance': () => ok(balanceList()),
    'game/sqChange': sqChange,
  })
}

function renderExchange() {
  render(
    <MemoryRouter initialEntries={['/exchange']}>
      <QueryScope>
        <Routes>
          <Route path="/exchange" element={<ExchangePage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </QueryScope>
    </MemoryRouter>,
  )
}

async function typeAmount(amount: string) {
  const input = await screen.findByTestId('exchange-amount-input')
  await userEvent.clear(input)
  if (amount) await userEvent.type(input, amount)
}

const text = (testId: string) => screen.getByTestId(testId).textContent

describe('exchange page', () => {
  beforeEach(() => vi.mocked(showToast).mockClear())
  afterEach(() => queryClient.clear())

  test('shows the community balance, the real-time price, the split and the fee rate', async () => {
    serve(() => ok(null))
    renderExchange()
    expect((await screen.findByTestId('exchange-available')).textContent).toBe('1,200.5 HOPE')
    expect(text('exchange-price')).toBe('1 HOPE = 0.1 USDT')
    expect(text('exchange-split')).toBe('80% 兑换为 USDT，20% 进入质押池，每日释放 1%')
    expect(text('exchange-fee-rate')).toBe('5%')
  })

  test('the breakdown follows the amount, worked out like the server', async () => {
    serve(() => ok(null))
    renderExchange()
    await typeAmount('100')
    expect(text('exchange-redeemed')).toBe('80 HOPE')
    expect(text('exchange-pledged')).toBe('20 HOPE')
    expect(text('exchange-gross')).toBe('8 USDT')
    expect(text('exchange-fee')).toBe('0.4 USDT')
    expect(text('exchange-net')).toBe('7.6 USDT')
    await userEvent.click(screen.getByTestId('exchange-all'))
    expect((screen.getByTestId('exchange-amount-input') as HTMLInputElement).value).toBe('1200.5')
    expect(text('exchange-net')).toBe('91.238 USDT')
  })

  test('an amount with more than 6 decimals (as every form) or a minus sign is refused with the reason, as typed', async () => {
    serve(() => ok(null))
    renderExchange()
    const input = (await screen.findByTestId('exchange-amount-input')) as HTMLInputElement
    await userEvent.type(input, '1.1234567')
    expect(input.value).toBe('1.1234567')
    expect(screen.getByRole('alert').textContent).toBe('最多 6 位小数')
    expect(screen.queryByTestId('exchange-net')).toBeNull()
    await typeAmount('-5e3')
    expect(input.value).toBe('-5e3')
    expect(text('exchange-amount-problem')).toBe('数量不能为负数，请去掉减号')
    await userEvent.click(screen.getByTestId('exchange-submit'))
    expect(screen.queryByTestId('exchange-confirm-sheet')).toBeNull()
  })

  test('more than the community account is said while typing, with no USDT estimate', async () => {
    serve(() => ok(null))
    renderExchange()
    await typeAmount('1200.6')
    expect(text('exchange-problem')).toBe('社区账户 HOPE 不足：可用 1,200.5 HOPE')
    expect(screen.queryByTestId('exchange-net')).toBeNull()
    expect(screen.queryByTestId('exchange-shortfall')).toBeNull()
  })

  test('empty and invalid amounts get the spec messages without a request', async () => {
    const api = serve(() => ok(null))
    renderExchange()
    await screen.findByTestId('exchange-submit')
    await userEvent.click(screen.getByTestId('exchange-submit'))
    expectSaidOnce('请输入兑换数量')
    for (const amount of ['0', '0.000']) {
      vi.mocked(showToast).mockClear()
      await typeAmount(amount)
      await userEvent.click(screen.getByTestId('exchange-submit'))
      expectSaidOnce('请输入正确的兑换数量')
    }
    await typeAmount('1200.500001')
    await userEvent.click(screen.getByTestId('exchange-submit'))
    expectSaidOnce('社区账户 HOPE 不足：可用 1,200.5 HOPE')
    expect(screen.queryByTestId('exchange-confirm-sheet')).toBeNull()
    expect(api.callsTo('game/sqChange')).toHaveLength(0)
  })

  test('a confirmed exchange posts once with an idempotency key and shows what the server did', async () => {
    const api = serve(() => ok(done()))
    renderExchange()
    await typeAmount('100')
    await userEvent.click(screen.getByTestId('exchange-submit'))
    const sheet = within(await screen.findByTestId('exchange-confirm-sheet'))
    expect(sheet.getByTestId('exchange-confirm-amount').textContent).toBe('100 HOPE')
    expect(sheet.getByTestId('exchange-confirm-net').textContent).toBe('7.6 USDT')
    const confirm = screen.getByTestId('exchange-confirm')
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
    await userEvent.click(result.getByTestId('exchange-result-pledges'))
    expect(text('where')).toBe('/pledgeRecord?tab=pledges')
  })

  test("a refusal shows only the server's message and closes the sheet", async () => {
    serve(() => fail(409, 'insufficient_balance', '余额不足'))
    renderExchange()
    await typeAmount('100')
    await userEvent.click(screen.getByTestId('exchange-submit'))
    fireEvent.click(await screen.findByTestId('exchange-confirm'))
    await waitFor(() => expect(screen.queryByTestId('exchange-confirm-sheet')).toBeNull())
    expect(vi.mocked(showToast).mock.calls).toEqual([['余额不足']])
    expect(screen.queryByTestId('exchange-result')).toBeNull()
  })
})
