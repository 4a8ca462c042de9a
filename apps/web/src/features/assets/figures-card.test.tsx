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

/** The figure said under its label ("收益率" → "12.5%"). */
const figure = (label: string) =>
  screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent

describe('account figures card', () => {
  afterEach(() => queryClient.clear())

  test('shows the three figures with their labels and when they were counted', async () => {
    fakeApi({ 'userAccount/figures': () => ok(figures()) })
    render(<FiguresCard />)
    const card = within(screen.getByRole('heading', { name: '账户统计' }).parentElement!)
    await card.findByText('收益率', { selector: 'dt' })
    expect(figure('收益率')).toBe('12.5%')
    expect(figure('交易量 (USDT)')).toBe('1,300')
    expect(figure('总交易额 (USDT)')).toBe('2,650.5')
    expect(card.getByText(`统计截至 ${formatDateTime(AS_OF, 'zhcn')}`)).toBeTruthy()
  })

  test('without a consensus principal or a first count, says so', async () => {
    fakeApi({
      'userAccount/figures': () =>
        ok(figures({ rateOfReturn: null, tradingVolume: '0', totalVolume: '0', asOf: null })),
    })
    render(<FiguresCard />)
    await screen.findByText('收益率', { selector: 'dt' })
    expect(figure('收益率')).toBe('—')
    expect(figure('总交易额 (USDT)')).toBe('0')
    expect(screen.getByText('正在统计，请稍后再看')).toBeTruthy()
  })

  test('loads, and offers a retry when the load fails', async () => {
    let answer: Reply = fail(500, 'internal_error', '系统错误')
    const api = fakeApi({ 'userAccount/figures': () => answer })
    render(<FiguresCard />)
    expect(screen.getByTestId('assets-figures-loading')).toBeTruthy()
    const retry = await screen.findByRole('button', { name: '加载失败，点击重试' })
    answer = ok(figures())
    await userEvent.click(retry)
    await screen.findByText('交易量 (USDT)', { selector: 'dt' })
    expect(figure('交易量 (USDT)')).toBe('1,300')
    expect(api.callsTo('userAccount/figures')).toHaveLength(2)
  })
})
