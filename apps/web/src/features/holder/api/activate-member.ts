import type { PurchaseResult } from '@hope/api'
import { useMoneyMutation, type MoneyMutationOptions } from '../../../lib/api/money-mutation.ts'
import { type QueryParams } from '../../../lib/api/request.ts'
import { sendOutflow } from '../../../lib/money-flow/outflow.ts'

export type ActivateInput = QueryParams<'game/activate'>

/**
 * `game/activate`: pays a downline member's membership level from my USDT (only the
 * difference over their current level), optionally placing them in a partition. Paying for
 * another member is an outflow: the wallet signs the price the server writes first. The
 * server's refusal (not_registered, not_downline, not_an_upgrade, placement_locked,
 * insufficient_balance) is toasted by the request wrapper; the key makes a repeat pay once.
 */
export function activateMember(params: ActivateInput): Promise<PurchaseResult> {
  return sendOutflow('game/activate', params)
}

/** My members' levels, my level info, the balance and the account log are refreshed. */
export function useActivateMember(options?: MoneyMutationOptions<PurchaseResult, ActivateInput>) {
  return useMoneyMutation('activate', activateMember, options)
}
