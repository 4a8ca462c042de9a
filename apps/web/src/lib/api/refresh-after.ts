import type { QueryClient, QueryKey } from '@tanstack/react-query'
import { accountKeys } from './account-keys.ts'
import { membershipKeys } from './membership.ts'
import { noticeKeys } from './notice-keys.ts'
import { stakingKeys } from './staking-keys.ts'
import { teamKeys } from './team-keys.ts'
import { refreshSessionUser } from './user-info.ts'

/** The actions that move money or change what a user holds. */
export type MoneyAction =
  | 'transfer'
  | 'withdraw'
  | 'cancelWithdrawal'
  | 'recharge'
  | 'stake'
  | 'redeem'
  | 'upgrade'
  | 'buyNode'
  | 'activate'
  | 'collect'

const moved = [accountKeys.balance(), accountKeys.logs(), accountKeys.figures()]

/**
 * What each action changes, as the keys of the queries that show it. The one list every
 * mutation refreshes from, so a figure shown on two screens cannot be fresh on one only.
 */
export const ACTION_CHANGES: Record<MoneyAction, { keys: readonly QueryKey[]; user?: true }> = {
  transfer: { keys: moved },
  withdraw: { keys: [...moved, accountKeys.withdrawals(), noticeKeys.all] },
  cancelWithdrawal: { keys: [...moved, accountKeys.withdrawals()] },
  recharge: { keys: [...moved, accountKeys.recharges()] },
  stake: { keys: [...moved, stakingKeys.info(), stakingKeys.positions()] },
  redeem: { keys: [...moved, stakingKeys.info(), stakingKeys.pledges()] },
  upgrade: { keys: [...moved, membershipKeys.all], user: true },
  buyNode: { keys: [...moved, membershipKeys.all], user: true },
  activate: { keys: [...moved, membershipKeys.all, teamKeys.all] },
  collect: { keys: moved },
}

/** Marks what `action` changed as stale: open screens read it again, others on their next visit. */
export function refreshAfter(queryClient: QueryClient, action: MoneyAction): void {
  const { keys, user } = ACTION_CHANGES[action]
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey })
  if (user) void refreshSessionUser(queryClient)
}
