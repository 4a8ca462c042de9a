import type { SecurityNotice, UserInfo } from '@hope/api'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { useSession } from '../lib/store.ts'
import { showToast, TOAST_NAVIGATION_GRACE_MS } from '../lib/ui/toast.ts'
import { fakeApi, ok } from '../test/fake-api.ts'
import { balanceList, enabledCoins, gameInfo } from '../../test-support/fixtures.ts'
import { earnings, teamStats } from '../../test-support/team-fixtures.ts'
import { createFakeWallet, installWallet } from '../test/fake-wallet.ts'
import { AppRouter } from './router.tsx'

const securityNotice: SecurityNotice = {
  id: 1,
  kind: 'new_device',
  detail: { ip: '203.0.113.7', device: 'Chrome' },
  createdAt: '2026-03-01T08:30:00Z',
  read: false,
}
/** The server's unread count: one until the notices screen reads them. */
let unread = 1

function renderSignedIn(hash: string) {
  unread = 1
  const wallet = createFakeWallet()
  installWallet(wallet)
  window.localStorage.setItem('token', 'tok')
  useSession.setState({ token: 'tok' })
  const user = { userName: wallet.address.toLowerCase(), nickName: 'A', level: 0 } as UserInfo
  fakeApi({
    'user/getUserInfo': () => ok(user),
    'main/news': () => ok({ list: [], total: 0, pageNum: 1, pageSize: 3 }),
    'userAccount/balance': () => ok(balanceList()),
    'userAccount/enableCoins': () => ok(enabledCoins()),
    'userAccount/balanceDetail': () => ok({ list: [], nextCursor: null }),
    'userAccount/myWithDraw': () => ok({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
    'userAccount/myRecharge': () => ok({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
    'game/info': () => ok(gameInfo()),
    'game/myStake': () => ok({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
    'game/stakeList': () => ok({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
    'game/groupTj': () => ok(teamStats()),
    'game/groupZt': () => ok({ list: [], total: 0, pageNum: 1, pageSize: 20 }),
    'game/earnings': () => ok(earnings()),
    'main/priceHistory': () =>
      ok({ symbol: 'ETH', range: '24h', price: '1', open24h: null, change24h: null, points: [] }),
    'main/ranking': () =>
      ok({ kind: 'inviters', day: '2031-05-10', takenAt: '', list: [], myRank: null }),
    'main/contact': () =>
      ok({
        email: 'support@hope.example',
        hoursFrom: '09:00',
        hoursTo: '21:00',
        utcOffsetMinutes: 480,
      }),
    'chat/unread': () => ok({ count: 0 }),
    'userAccount/notices': (call) => {
      const list = call.params.pageSize === '1' ? [] : [securityNotice]
      return ok({ list, total: 1, pageNum: 1, pageSize: 20, unread })
    },
    'userAccount/readNotices': () => {
      unread = 0
      return ok({ unread })
    },
  })
  window.location.hash = hash
  render(<AppRouter />)
}

describe('routes', () => {
  beforeEach(() => window.history.replaceState(null, '', '/'))
  afterEach(() => installWallet(undefined))

  test('an unknown path goes home', async () => {
    renderSignedIn('#/nowhere')
    expect(await screen.findByTestId('home-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(window.location.hash).toBe('#/')
  })

  test('tab screens show the tab bar and their title as a header without a back arrow', async () => {
    renderSignedIn('#/stake')
    expect(await screen.findByTestId('screen-stake', {}, { timeout: 3000 })).toBeTruthy()
    expect(await screen.findByTestId('stake-stage', {}, { timeout: 3000 })).toBeTruthy()
    expect(screen.getByTestId('tab-bar').textContent).toBe('首页资产质押社区')
    expect(screen.getByRole('heading', { level: 1, name: '质押' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: '返回' })).toBeNull()
  })

  test.each([
    ['#/withdraw', '提现记录', 'withdraw-record-page', '#/withdrawRecord'],
    ['#/transfer', '账户明细', 'account-log-page', '#/accountLog?account=usdt'],
    ['#/stake', '质押记录', 'pledge-record-page', '#/pledgeRecord'],
    ['#/exchange', '质押记录', 'pledge-record-page', '#/pledgeRecord?tab=pledges'],
  ])('the bar of %s holds its records, named %s', async (hash, name, screenId, to) => {
    renderSignedIn(hash)
    // A short "记录" on screen, named in full for assistive tech.
    const bar = within(await screen.findByRole('banner', {}, { timeout: 3000 }))
    const link = await bar.findByRole('button', { name }, { timeout: 3000 })
    expect(link.textContent).toBe('记录')
    await userEvent.click(link)
    expect(await screen.findByTestId(screenId, {}, { timeout: 3000 })).toBeTruthy()
    expect(window.location.hash).toBe(to)
  })

  test('other screens have the back bar with their title, no tab bar, and back without history goes home', async () => {
    renderSignedIn('#/team')
    expect(await screen.findByTestId('screen-team', {}, { timeout: 3000 })).toBeTruthy()
    expect(screen.getByRole('heading', { level: 1, name: '我的团队' })).toBeTruthy()
    expect(screen.queryByTestId('tab-bar')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: '返回' }))
    expect(await screen.findByTestId('home-page')).toBeTruthy()
  })

  test('assets is a tab screen; the account log and transfer have the back bar', async () => {
    renderSignedIn('#/assets')
    expect(await screen.findByTestId('assets-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(screen.getByRole('heading', { level: 1, name: '我的资产' })).toBeTruthy()
    expect(screen.getByTestId('tab-bar')).toBeTruthy()
    await userEvent.click(await screen.findByRole('button', { name: '账户明细' }))
    expect(await screen.findByTestId('account-log-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(screen.getByRole('heading', { level: 1, name: '账户明细' })).toBeTruthy()
    expect(screen.queryByTestId('tab-bar')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: '返回' }))
    await userEvent.click(await screen.findByRole('button', { name: '转账' }))
    expect(await screen.findByTestId('transfer-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(screen.getByRole('heading', { level: 1, name: '转账' })).toBeTruthy()
  })

  test.each([
    ['#/recharge', 'recharge-page', '充值'],
    ['#/rechargeRecord', 'recharge-record-page', '充值记录'],
    ['#/withdraw', 'withdraw-page', '提现'],
    ['#/withdrawRecord', 'withdraw-record-page', '提现记录'],
    ['#/exchange', 'exchange-page', '兑换'],
    ['#/pledgeRecord', 'pledge-record-page', '质押记录'],
    ['#/quotes', 'screen-quotes', '行情'],
    ['#/ranking', 'screen-ranking', '排行榜'],
    ['#/contact', 'screen-contact', '联系我们'],
  ])('%s is its own screen with the back bar', async (hash, testId, title) => {
    renderSignedIn(hash)
    expect(await screen.findByTestId(testId, {}, { timeout: 3000 })).toBeTruthy()
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeTruthy()
    expect(screen.queryByTestId('tab-bar')).toBeNull()
  })

  test('the main screens have the notice bell; it opens the notices, which clear it', async () => {
    renderSignedIn('#/')
    expect(
      (await screen.findByTestId('notice-bell-count', {}, { timeout: 3000 })).textContent,
    ).toBe('1')
    await userEvent.click(screen.getByRole('button', { name: '安全通知，1 条未读' }))
    expect(await screen.findByTestId('notices-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(screen.getByRole('heading', { level: 1, name: '安全通知' })).toBeTruthy()
    expect(await screen.findByText('新设备登录')).toBeTruthy()
    // Off the main screens, no bell.
    expect(screen.queryByRole('button', { name: /^安全通知/ })).toBeNull()
    await waitFor(() => expect(unread).toBe(0))
    await userEvent.click(screen.getByRole('button', { name: '返回' }))
    expect(await screen.findByTestId('home-page')).toBeTruthy()
    expect(screen.getByRole('button', { name: '安全通知' })).toBeTruthy()
    expect(screen.queryByTestId('notice-bell-count')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: '资产' }))
    expect(await screen.findByTestId('assets-page', {}, { timeout: 3000 })).toBeTruthy()
    expect(screen.getByRole('button', { name: '安全通知' })).toBeTruthy()
  })

  test('recharge opens from the home grid', async () => {
    renderSignedIn('#/')
    await userEvent.click(await screen.findByRole('button', { name: '充值' }, { timeout: 3000 }))
    expect(await screen.findByTestId('recharge-page', {}, { timeout: 3000 })).toBeTruthy()
  })

  test('a message of the screen left does not follow the user to the next', async () => {
    renderSignedIn('#/team')
    await screen.findByTestId('screen-team', {}, { timeout: 3000 })
    showToast('团队页的提示')
    expect(await screen.findByText('团队页的提示', {}, { timeout: 3000 })).toBeTruthy()
    // The message has been up for the grace period (on fake timers: no real wait).
    vi.useFakeTimers({ shouldAdvanceTime: true })
    await act(() => vi.advanceTimersByTimeAsync(TOAST_NAVIGATION_GRACE_MS))
    await userEvent.click(screen.getByRole('button', { name: '返回' }))
    expect(await screen.findByTestId('home-page')).toBeTruthy()
    await waitFor(() => expect(screen.queryByText('团队页的提示')).toBeNull())
  })

  test('back returns to the previous screen when there is one', async () => {
    renderSignedIn('#/')
    await userEvent.click(
      await screen.findByRole('button', { name: 'VIP 会员' }, { timeout: 3000 }),
    )
    expect(
      await screen.findByRole('heading', { level: 1, name: 'VIP 会员' }, { timeout: 3000 }),
    ).toBeTruthy()
    expect(window.history.state?.idx).toBe(1)
    await userEvent.click(screen.getByRole('button', { name: '返回' }))
    expect(await screen.findByTestId('home-page')).toBeTruthy()
    expect(window.history.state?.idx).toBe(0)
  })
})
