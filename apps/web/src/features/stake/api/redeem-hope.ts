import type { RedeemParams, RedeemResult } from '@hope/api'
import { useMoneyMutation, type MoneyMutationOptions } from '../../../lib/api/money-mutation.ts'
import { request } from '../../../lib/api/request.ts'

/**
 * `game/sqChange`: redeems community HOPE at the real-time price; the redeemed share's USDT
 * less the fee goes to the USDT account, the rest becomes a pledge item. The server's refusal
 * (redeem_amount_invalid, insufficient_balance, …) is toasted by the request wrapper; the key
 * makes a repeat with the same key redeem once.
 */
export function redeemHope(params: RedeemParams): Promise<RedeemResult> {
  return request('game/sqChange', params)
}

/** The balance, the account log and the pledge records are refreshed, whatever the caller adds. */
export function useRedeemHope(options?: MoneyMutationOptions<RedeemResult, RedeemParams>) {
  return useMoneyMutation('redeem', redeemHope, options)
}
