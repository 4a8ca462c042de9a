import type { AccountFigures } from '@hope/api'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { formatDateTime } from '../../lib/format/format.ts'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { fail, fakeApi, ok, type Reply } from '../../test/fake-api.ts'
import FiguresCard from './figures-card.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

const AS_OF = '2026-11-26T08:30:00.000Z'
const figures = (over: Partial<AccountFigures> = {}): AccountFigures => ({
  rateOfReturn: '12.5',
  tradingVolume: '1300',
  totalVolume: '2650.5',
  asOf: AS_OF,
  ...over,
})

describe('account figures card', () => {
  afterEach(() => queryClient.clear())

  test('shows the three figures with their labels and when they were counted', async () => {
    fakeApi({ 'userAccount/figures': () => ok(figures()) })
    render(<FiguresCard />)
    expect((await screen.findByTestId('assets-figure-rate')).textContent).toBe('12.5%')
    expect(screen.getByTestId('assets-figure-trading').textContent).toBe('1,300')
    expect(screen.getByTestId('assets-figure-total').textContent).toBe('2,650.5')
    const card = screen.getByTestId('assets-figures')
    expect(within(card).getByRole('heading').textContent).toBe('账户统计')
    expect(within(card).getByText('收益率')).toBeTruthy()
    expect(within(card).getByText('交易量 (USDT)')).toBeTruthy()
    expect(within(card).getByText('总交易额 (USDT)')).toBeTruthy()
    expect(screen.getByTestId('assets-figures-as-of').textContent).toBe(
      `统计截至 ${formatDateTime(AS_OF, 'zhcn')}`,
    )
  })

  test('without a consensus principal or a first count, says so', async () => {
    fakeApi({
      'userAccount/figures': () =>
        ok(figures({ rateOfReturn: null, tradingVolume: '0', totalVolume: '0', asOf: null })),
    })
    render(<FiguresCard />)
    expect((await screen.findByTestId('assets-figure-rate')).textContent).toBe('—')
    expect(screen.getByTestId('assets-figure-total').textContent).toBe('0')
    expect(screen.getByTestId('assets-figures-as-of').textContent).toBe('正在统计，请稍后再看')
  })

  test('loads, and offers a retry when the load fails', async () => {
    let answer: Reply = fail(500, 'internal_error', '系统错误')
    const api = fakeApi({ 'userAccount/figures': () => answer })
    render(<FiguresCard />)
    expect(screen.getByTestId('assets-figures-loading')).toBeTruthy()
    const retry = await screen.findByTestId('assets-figures-retry')
    answer = ok(figures())
    await userEvent.click(retry)
    expect((await screen.findByTestId('assets-figure-trading')).textContent).toBe('1,300')
    expect(api.callsTo('userAccount/figures')).toHaveLength(2)
  })
})
