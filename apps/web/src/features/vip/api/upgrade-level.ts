import type { PurchaseResult } from '@hope/api'
import { useMoneyMutation, type MoneyMutationOptions } from '../../../lib/api/money-mutation.ts'
import { request } from '../../../lib/api/request.ts'

export interface UpgradeLevelParams {
  level: number
  idempotencyKey: string
}

/**
 * `game/upgrade`: buys a higher membership level, paying only the difference in USDT, which
 * buys HOPE at the real-time price into the split account. The server's refusal
 * (not_an_upgrade, insufficient_balance, …) is toasted by the request wrapper in the user's
 * language; a repeat with the same key pays once.
 */
export function upgradeLevel(params: UpgradeLevelParams): Promise<PurchaseResult> {
  return request('game/upgrade', params)
}

/** The balance, the account log and the level with its split figures are refreshed. */
export function useUpgradeLevel(
  options?: MoneyMutationOptions<PurchaseResult, UpgradeLevelParams>,
) {
  return useMoneyMutation('upgrade', upgradeLevel, options)
}
