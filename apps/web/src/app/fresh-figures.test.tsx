import type { RoutePath, UserInfo } from '@hope/api'
import { QueryClient, QueryObserver, InfiniteQueryObserver } from '@tanstack/react-query'
import { afterEach, describe, expect, test } from 'vitest'
import { balanceOptions } from '../lib/api/balance.ts'
import { directMembersOptions } from '../lib/api/direct-members.ts'
import { vipInfoOptions } from '../lib/api/membership.ts'
import { ACTION_CHANGES, refreshAfter, type MoneyAction } from '../lib/api/refresh-after.ts'
import { userInfoOptions } from '../lib/api/user-info.ts'
import { useSession } from '../lib/store.ts'
import { fakeApi, ok, type ApiCall } from '../test/fake-api.ts'
import { balanceList } from '../../test-support/fixtures.ts'
import { accountLogOptions } from '../features/account-log/api/account-log.ts'
import { accountFiguresOptions } from '../features/assets/api/account-figures.ts'
import { noticesOptions, unreadNoticesOptions } from '../features/notices/api/notices.ts'
import { myRechargesOptions } from '../features/recharge/api/my-recharges.ts'
import { gameInfoOptions } from '../features/stake/api/game-info.ts'
import { myPledgesOptions } from '../features/stake/api/my-pledges.ts'
import { myStakesOptions } from '../features/stake/api/my-stakes.ts'
import { earningsOptions } from '../features/team/api/earnings.ts'
import { teamStatsOptions } from '../features/team/api/team-stats.ts'
import { splitLogOptions } from '../features/vip/api/split-log.ts'
import { myWithdrawalsOptions } from '../features/withdraw/api/my-withdrawals.ts'

/**
 * What the server changes for each action: the endpoints whose answers differ afterwards
 * (written from the server's side, not from the refresh list it checks).
 */
const SERVER_CHANGES: Record<MoneyAction, RoutePath[]> = {
  transfer: ['userAccount/balance', 'userAccount/balanceDetail', 'userAccount/figures'],
  withdraw: [
    'userAccount/balance',
    'userAccount/balanceDetail',
    'userAccount/figures',
    'userAccount/myWithDraw',
    'userAccount/notices',
  ],
  cancelWithdrawal: [
    'userAccount/balance',
    'userAccount/balanceDetail',
    'userAccount/figures',
    'userAccount/myWithDraw',
  ],
  recharge: [
    'userAccount/balance',
    'userAccount/balanceDetail',
    'userAccount/figures',
    'userAccount/myRecharge',
  ],
  stake: [
    'userAccount/balance',
    'userAccount/balanceDetail',
    'userAccount/figures',
    'game/info',
    'game/myStake',
  ],
  redeem: [
    'userAccount/balance',
    'userAccount/balanceDetail',
    'userAccount/figures',
    'game/info',
    'game/stakeList',
  ],
  upgrade: [
    'userAccount/balance',
    'userAccount/balanceDetail',
    'userAccount/figures',
    'game/vipInfo',
    'user/getUserInfo',
  ],
  buyNode: [
    'userAccount/balance',
    'userAccount/balanceDetail',
    'userAccount/figures',
    'game/vipInfo',
    'user/getUserInfo',
  ],
  activate: [
    'userAccount/balance',
    'userAccount/balanceDetail',
    'userAccount/figures',
    'game/vipInfo',
    'game/groupZt',
    'game/groupTj',
  ],
  collect: ['userAccount/balance', 'userAccount/balanceDetail', 'userAccount/figures'],
}

/** Every screen's reads of the figures a money action can move, as the screens build them. */
const SCREEN_READS = () => [
  balanceOptions(),
  accountLogOptions({}),
  splitLogOptions(),
  accountFiguresOptions(),
  myWithdrawalsOptions(),
  myRechargesOptions(),
  noticesOptions(),
  unreadNoticesOptions(),
  gameInfoOptions(),
  myStakesOptions(),
  myPledgesOptions(),
  vipInfoOptions(),
  directMembersOptions(),
  teamStatsOptions(),
  earningsOptions(),
  userInfoOptions(),
]

const page = { list: [], total: 0, pageNum: 1, pageSize: 20, unread: 0, nextCursor: null }
const user = (level: number) => ({ userName: '0xabc', level, nodes: [] }) as unknown as UserInfo

/** A server answering every read; `level` is the level `getUserInfo` says now. */
function serve(state: { level: number }) {
  const any = (_: ApiCall) => ok(page)
  return fakeApi({
    'userAccount/balance': () => ok(balanceList()),
    'userAccount/balanceDetail': any,
    'userAccount/figures': () => ok({}),
    'userAccount/myWithDraw': any,
    'userAccount/myRecharge': any,
    'userAccount/notices': any,
    'game/info': () => ok({}),
    'game/myStake': any,
    'game/stakeList': any,
    'game/vipInfo': () => ok({}),
    'game/groupZt': any,
    'game/groupTj': () => ok({}),
    'game/earnings': () => ok({}),
    'user/getUserInfo': () => ok(user(state.level)),
  })
}

/** Mounts every read as a screen would (an observer each) and waits for the first answers. */
async function openEveryScreen(client: QueryClient) {
  const unsubscribe: (() => void)[] = []
  for (const options of SCREEN_READS()) {
    const observer =
      'initialPageParam' in options
        ? new InfiniteQueryObserver(client, options as never)
        : new QueryObserver(client, options as never)
    unsubscribe.push(observer.subscribe(() => undefined))
  }
  await expect
    .poll(() =>
      client
        .getQueryCache()
        .findAll()
        .every((q) => q.state.status === 'success'),
    )
    .toBe(true)
  return () => unsubscribe.forEach((stop) => stop())
}

const count = (calls: ApiCall[]) => {
  const counts = new Map<string, number>()
  for (const call of calls) counts.set(call.path, (counts.get(call.path) ?? 0) + 1)
  return counts
}

describe('every screen shows what a money action changed, without a reload', () => {
  afterEach(() => useSession.getState().signOut())

  test.each(Object.keys(ACTION_CHANGES) as MoneyAction[])('%s', async (action) => {
    const client = new QueryClient({
      defaultOptions: { queries: { retry: false, staleTime: 60_000 } },
    })
    const state = { level: 1 }
    const api = serve(state)
    useSession.getState().signIn({ token: 'token-1', ...user(1) } as never)
    const close = await openEveryScreen(client)
    const before = count(api.calls)

    // The server moved the figures; the level only for the actions that change it.
    if (SERVER_CHANGES[action].includes('user/getUserInfo')) state.level = 3
    refreshAfter(client, action)

    for (const path of SERVER_CHANGES[action])
      await expect
        .poll(() => count(api.calls).get(path) ?? 0, { message: `${action} reads ${path} again` })
        .toBeGreaterThan(before.get(path) ?? 0)
    // Home and My account show the session's level.
    await expect.poll(() => useSession.getState().userInfo?.level).toBe(state.level)
    close()
    client.clear()
  })
})
