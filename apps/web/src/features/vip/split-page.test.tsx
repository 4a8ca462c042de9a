import type { AccountLogEntry } from '@hope/api'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { formatDateTime } from '../../lib/format/format.ts'
import { loadNamespace, setLanguage } from '../../lib/i18n/i18n.ts'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { fail, fakeApi, ok, type ApiCall, type Reply } from '../../test/fake-api.ts'
import { balanceList, logEntry } from '../../../test-support/fixtures.ts'
import { SplitPage } from './split-page.tsx'
import { renderAt } from '../../test/render-at.tsx'
import { vipInfo } from '../../../test-support/vip-fixtures.ts'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

const splitEntry = (id: number, changes: Partial<AccountLogEntry> = {}) =>
  logEntry(id, { account: 'split', currency: 'HOPE', ...changes })

const page = (list: AccountLogEntry[], nextCursor: string | null = null) => ok({ list, nextCursor })

function serve(
  replies: { info?: () => Reply; log?: (call: ApiCall) => Reply } = {},
): ReturnType<typeof fakeApi> {
  return fakeApi({
    'game/vipInfo': replies.info ?? (() => ok(vipInfo())),
    'userAccount/balance': () =>
      ok(balanceList({ split: { balance: '749.5', available: '0', locked: '749.5' } })),
    'userAccount/balanceDetail':
      replies.log ??
      (() =>
        page([
          splitEntry(2, {
            amount: '-10.000000000000000000',
            balanceAfter: '749.5',
            logType: 4,
            createdAt: '2026-03-02T00:05:00Z',
          }),
          splitEntry(1, {
            amount: '1818.181818181818181818',
            balanceAfter: '1818.181818181818181818',
            logType: 15,
          }),
        ])),
  })
}

function renderSplit() {
  renderAt('/split', <SplitPage />)
}

const text = (testId: string) => screen.getByTestId(testId).textContent
/** The figure said under a label of the split card ("累计买入" → "1,000"). */
const figure = (label: string) =>
  screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent

describe('split page', () => {
  beforeAll(() => loadNamespace('vip'))
  beforeEach(() => queryClient.clear())
  afterEach(() => setLanguage('zhcn'))

  test('shows what is locked, what is usable now, what was bought and released, and the daily rate', async () => {
    serve()
    renderSplit()
    // The split account's HOPE is locked: nothing of it is usable before its release.
    const locked = await screen.findByText('锁定中，待释放 (HOPE)')
    expect(locked.nextElementSibling?.textContent).toBe('749.5')
    expect(figure('现在可用')).toBe('0')
    expect(figure('累计买入')).toBe('1,000')
    expect(figure('已释放到社区账户')).toBe('250.5')
    expect(figure('每日释放')).toBe('1% / 天')
  })

  test('lists the split account log with type names, signed amounts and balances', async () => {
    const api = serve()
    renderSplit()
    const rows = (await screen.findAllByTestId('split-log-item')).map((row) => within(row))
    expect(rows.map((row) => row.getByTestId('split-log-type').textContent)).toEqual([
      '拆分奖励',
      '升级购买',
    ])
    expect(rows.map((row) => row.getByTestId('split-log-amount').textContent)).toEqual([
      '-10 HOPE',
      '+1,818.181818 HOPE',
    ])
    expect(rows[0]?.getByTestId('split-log-balance').textContent).toBe('可用 749.5 HOPE')
    expect(rows[0]?.getByText(formatDateTime('2026-03-02T00:05:00Z', 'zhcn'))).toBeTruthy()
    expect(api.callsTo('userAccount/balanceDetail')[0]?.params).toEqual({
      pageSize: '20',
      account: 'split',
    })
  })

  test('pages on with the cursor as the list scrolls to its end', async () => {
    vi.spyOn(HTMLElement.prototype, 'offsetParent', 'get').mockReturnValue(document.body)
    const api = serve({
      log: ({ params }) =>
        params.cursor === '2'
          ? page([splitEntry(1)])
          : page(
              Array.from({ length: 20 }, (_, i) => splitEntry(21 - i)),
              '2',
            ),
    })
    renderSplit()
    await waitFor(() => expect(screen.getAllByTestId('split-log-item')).toHaveLength(21))
    expect(api.callsTo('userAccount/balanceDetail').map((call) => call.params.cursor)).toEqual([
      undefined,
      '2',
    ])
    expect(await screen.findByText('没有更多了')).toBeTruthy()
  })

  test('an account without records says so', async () => {
    serve({
      log: () => page([]),
      info: () => ok(vipInfo({ split: { total: '0', released: '0' } })),
    })
    renderSplit()
    expect(await screen.findByText('暂无拆分记录')).toBeTruthy()
    expect(figure('累计买入')).toBe('0')
  })

  test('figures that failed offer a retry, the log still shows', async () => {
    let reachable = false
    const api = serve({
      info: () => (reachable ? ok(vipInfo()) : fail(500, 'internal_error', '系统错误')),
    })
    renderSplit()
    const retry = await screen.findByRole('button', { name: '加载失败，点击重试' })
    expect(await screen.findAllByTestId('split-log-item')).toHaveLength(2)
    reachable = true
    await userEvent.click(retry)
    await screen.findByText('累计买入', { selector: 'dt' })
    expect(figure('累计买入')).toBe('1,000')
    expect(api.callsTo('game/vipInfo')).toHaveLength(2)
  })

  test('the upgrade link opens the membership levels', async () => {
    serve()
    renderSplit()
    await userEvent.click(await screen.findByRole('button', { name: '升级会员' }))
    expect(text('where')).toBe('/vip')
  })

  test('numbers and names follow the language', async () => {
    await setLanguage('vi')
    serve({ info: () => ok(vipInfo({ splitDailyRate: '0.005' })) })
    renderSplit()
    await screen.findByText('Giải phóng mỗi ngày', { selector: 'dt' })
    expect(figure('Giải phóng mỗi ngày')).toBe('0,5% / ngày')
    expect(figure('Tổng đã mua')).toBe('1.000')
    expect(figure('Đã giải phóng vào tài khoản cộng đồng')).toBe('250,5')
    const [first] = await screen.findAllByTestId('split-log-item')
    expect(within(first as HTMLElement).getByTestId('split-log-type').textContent).toBe(
      'Thưởng tách',
    )
  })
})
