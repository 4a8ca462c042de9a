import type { PurchaseResult } from '@hope/api'
import { useMoneyMutation, type MoneyMutationOptions } from '../../../lib/api/money-mutation.ts'
import { request, type QueryParams } from '../../../lib/api/request.ts'

export type ActivateInput = QueryParams<'game/activate'>

/**
 * `game/activate`: pays a downline member's membership level from my USDT (only the
 * difference over their current level), optionally placing them in a partition. The server's
 * refusal (not_registered, not_downline, not_an_upgrade, placement_locked,
 * insufficient_balance) is toasted by the request wrapper; the key makes a repeat pay once.
 */
export function activateMember(params: ActivateInput): Promise<PurchaseResult> {
  return request('game/activate', params)
}

/** My members' levels, my level info, the balance and the account log are refreshed. */
export function useActivateMember(options?: MoneyMutationOptions<PurchaseResult, ActivateInput>) {
  return useMoneyMutation('activate', activateMember, options)
}
