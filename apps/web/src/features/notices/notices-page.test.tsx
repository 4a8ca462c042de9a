import type { NoticeKind, SecurityNotice } from '@hope/api'
import { render, screen, waitFor, within } from '@testing-library/react'
import { StrictMode } from 'react'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { formatDateTime } from '../../lib/format/format.ts'
import { loadNamespace, setLanguage } from '../../lib/i18n/i18n.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { useSession } from '../../lib/store.ts'
import { fakeApi, ok, type Reply } from '../../test/fake-api.ts'
import { noticeKeys } from '../../lib/api/notice-keys.ts'
import { NoticesPage } from './notices-page.tsx'
import { depositAddress } from '../../../test-support/fixtures.ts'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

const ADDRESS = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const HASH = `0x${'cd'.repeat(32)}`
const HOLD_UNTIL = '2026-03-02T08:30:00Z'

const notice = (
  id: number,
  kind: NoticeKind,
  detail: SecurityNotice['detail'],
  read = false,
): SecurityNotice => ({ id, kind, detail, createdAt: '2026-03-01T08:30:00Z', read })

/** One notice of every kind, newest first, as the server writes their details. */
const everyKind = (read = false): SecurityNotice[] => [
  notice(5, 'limit_reached', { amount: '5000.000000', left: '1234.500000' }, read),
  notice(
    4,
    'withdrawal_paid',
    { address: ADDRESS, amount: '1234.5', withdrawalId: 7, txHash: HASH },
    read,
  ),
  notice(3, 'withdrawal_requested', { address: ADDRESS, amount: '1234.5', withdrawalId: 7 }, read),
  notice(
    2,
    'new_withdrawal_address',
    { address: ADDRESS, amount: '1234.5', holdUntil: HOLD_UNTIL, withdrawalId: 7 },
    read,
  ),
  notice(1, 'new_device', { ip: '203.0.113.7', device: 'Mozilla/5.0 (iPhone) MetaMask' }, read),
  notice(0, 'withdrawal_cancelled', { address: ADDRESS, amount: '20', withdrawalId: 6 }, read),
]

const page = (list: SecurityNotice[], unread = list.filter((n) => !n.read).length) =>
  ok({ list, total: list.length, pageNum: 1, pageSize: 20, unread })

function renderNotices(handlers: { notices: () => Reply; read?: () => Reply; strict?: boolean }) {
  const api = fakeApi({
    'userAccount/notices': handlers.notices,
    'userAccount/readNotices': handlers.read ?? (() => ok({ unread: 0 })),
    'userAccount/getAddress': () => ok(depositAddress()),
  })
  const screenTree = (
    <MemoryRouter initialEntries={['/notices']}>
      <QueryScope>
        <NoticesPage />
      </QueryScope>
    </MemoryRouter>
  )
  render(handlers.strict ? <StrictMode>{screenTree}</StrictMode> : screenTree)
  return api
}

const texts = (testId: string) => screen.getAllByTestId(testId).map((el) => el.textContent)

describe('security notices', () => {
  beforeAll(() => loadNamespace('notices'))
  beforeEach(() => {
    queryClient.clear()
    vi.mocked(showToast).mockClear()
    useSession.setState({ token: 'tok', tokenChecked: true })
  })
  afterEach(() => setLanguage('zhcn'))

  test('every kind has its title and a sentence with its details', async () => {
    renderNotices({ notices: () => page(everyKind(true)) })
    expect(screen.getByTestId('notices-page')).toBeTruthy()
    await screen.findAllByTestId('notice-item')
    expect(texts('notice-title')).toEqual([
      '已达提现限额',
      '提现已到账',
      '已申请提现',
      '新提现地址',
      '新设备登录',
      '提现已取消',
    ])
    expect(texts('notice-text')).toEqual([
      '提现 5,000 USDT 超出限额，未能提交；目前还可提现 1,234.5 USDT。',
      '1,234.5 USDT 已转至 0x7099******dc79c8。',
      '已提交提现 1,234.5 USDT 至 0x7099******dc79c8 的申请。',
      `提现 1,234.5 USDT 至新地址 0x7099******dc79c8，将等待至 ${formatDateTime(HOLD_UNTIL, 'zhcn')} 后才会审核，期间你可以取消。`,
      '你的账户在新设备上登录：Mozilla/5.0 (iPhone) MetaMask，IP 203.0.113.7。如非本人操作，请立即联系我们。',
      '你提现的 20 USDT（至 0x7099******dc79c8）已取消，款项已退回账户。',
    ])
    // The paid one's transaction, with its explorer page.
    const paid = screen.getAllByTestId('notice-item')[1] as HTMLElement
    expect(within(paid).getByTestId('notice-hash').textContent).toBe('0xcdcd******cdcdcd')
    await waitFor(() =>
      expect(within(paid).getByTestId('notice-hash-explorer').getAttribute('href')).toBe(
        `https://explorer.test/tx/${HASH}`,
      ),
    )
    const first = screen.getAllByTestId('notice-item')[0] as HTMLElement
    expect(within(first).getByText(formatDateTime('2026-03-01T08:30:00Z', 'zhcn'))).toBeTruthy()
  })

  test('in another language, titles and amounts are written its way', async () => {
    await setLanguage('vi')
    renderNotices({ notices: () => page(everyKind(true).slice(0, 2)) })
    await screen.findAllByTestId('notice-item')
    expect(texts('notice-title')).toEqual(['Đã đạt hạn mức rút', 'Rút tiền thành công'])
    expect(texts('notice-text')).toEqual([
      'Lệnh rút 5.000 USDT vượt hạn mức nên chưa được gửi; bạn vẫn có thể rút 1.234,5 USDT.',
      '1.234,5 USDT đã được chuyển đến 0x7099******dc79c8.',
    ])
  })

  test('opened with unread notices, it marks them read once; they stay marked while open', async () => {
    let read = false
    const api = renderNotices({
      // Strict, as the app runs: effects run twice, and the read is still asked once.
      strict: true,
      notices: () =>
        page([
          // Asked again after the read, the list has a newer notice, already read.
          ...(read ? [notice(3, 'limit_reached', { amount: '10', left: '0' }, true)] : []),
          notice(2, 'new_device', { ip: '198.51.100.4', device: 'Chrome' }, read),
          notice(1, 'new_device', { ip: '198.51.100.4', device: 'Safari' }, true),
        ]),
      read: () => {
        read = true
        return ok({ unread: 0 })
      },
    })
    await screen.findAllByTestId('notice-item')
    // The bell's count is 0 at once, and the list is asked again.
    await waitFor(() => expect(queryClient.getQueryData(noticeKeys.unread())).toBe(0))
    await waitFor(() => expect(screen.getAllByTestId('notice-item')).toHaveLength(3))
    expect(api.callsTo('userAccount/readNotices')).toHaveLength(1)
    const rows = screen.getAllByTestId('notice-item')
    expect(rows.map((row) => row.dataset.unread)).toEqual(['false', 'true', 'false'])
    expect(within(rows[1]!).getByText('未读')).toBeTruthy()
    expect(screen.getAllByText('未读')).toHaveLength(1)
    expect(showToast).not.toHaveBeenCalled()
  })

  test('nothing unread: nothing to mark', async () => {
    const api = renderNotices({ notices: () => page(everyKind(true)) })
    await screen.findAllByTestId('notice-item')
    expect(screen.queryByText('未读')).toBeNull()
    expect(api.callsTo('userAccount/readNotices')).toEqual([])
  })

  test('no notices yet', async () => {
    const api = renderNotices({ notices: () => page([]) })
    expect(await screen.findByText('暂无安全通知')).toBeTruthy()
    expect(api.callsTo('userAccount/notices').map((call) => call.params)).toEqual([
      { pageNum: '1', pageSize: '20' },
    ])
    expect(api.callsTo('userAccount/readNotices')).toEqual([])
  })
})
