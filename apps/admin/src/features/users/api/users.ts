import type { AdminUser, BalanceAdjustParams, BalanceAdjustResult, MemberFlags } from '@hope/api'
import type { PageRequest } from '../../../lib/pagination.ts'
import { searchPageOptions } from '../../../lib/page-query.ts'
import { request } from '../../../lib/request.ts'
import { useRefreshingMutation, type MutationOptions } from '../../../lib/mutation.ts'

export interface UserSearch extends PageRequest {
  q: string
}

export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (search: UserSearch) => [...userKeys.lists(), search] as const,
  tree: (userName: string) => [...userKeys.all, 'tree', userName] as const,
}

/** `admin/users`: users by address, nickname or referral code, newest first. */
export function usersOptions(search: UserSearch) {
  return searchPageOptions(userKeys, 'admin/users', search, { q: search.q || undefined })
}

/** `admin/userTree`: a user and the members directly under them (one tree level). */
export function fetchUserTree(userName: string, signal?: AbortSignal) {
  return request('admin/userTree', { userName }, signal ? { signal } : {})
}

export type AdjustDirection = 'credit' | 'debit'
export type AdjustVariables = BalanceAdjustParams & { direction: AdjustDirection }

/**
 * `admin/credit` (log 5) or `admin/debit` (log 6): one account of one user, with a reason; the
 * idempotency key makes a repeat (a double click, a retry) move the money once.
 */
export function adjustBalance({
  direction,
  ...params
}: AdjustVariables): Promise<BalanceAdjustResult> {
  return request(direction === 'credit' ? 'admin/credit' : 'admin/debit', params)
}

type AdjustOptions = MutationOptions<BalanceAdjustResult, AdjustVariables>

/** The user lists are refreshed (balances changed), whatever the caller adds. */
export function useAdjustBalance(options: AdjustOptions = {}) {
  return useRefreshingMutation(adjustBalance, [userKeys.all], options)
}

export type FlagRobotVariables = { userName: string; robot: boolean; reason: string }
export type GrantShareholderVariables = { userName: string; type: 1 | 2 | 3; reason: string }

type FlagOptions<V> = MutationOptions<MemberFlags, V>

/** `admin/flagRobot`: robots earn no rewards; audited. */
export function useFlagRobot(options: FlagOptions<FlagRobotVariables> = {}) {
  return useRefreshingMutation(
    ({ userName, robot, reason }: FlagRobotVariables) =>
      request('admin/flagRobot', { userName, robot: robot ? 'true' : 'false', reason }),
    [userKeys.all],
    options,
  )
}

/** `admin/grantShareholder`: a shareholder tier (node type 1..3) after the e-mail application. */
export function useGrantShareholder(options: FlagOptions<GrantShareholderVariables> = {}) {
  return useRefreshingMutation(
    ({ userName, type, reason }: GrantShareholderVariables) =>
      request('admin/grantShareholder', {
        userName,
        type: String(type) as '1' | '2' | '3',
        reason,
      }),
    [userKeys.all],
    options,
  )
}

export type { AdminUser }
