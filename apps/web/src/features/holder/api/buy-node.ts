import type { PurchaseResult } from '@hope/api'
import { useMoneyMutation, type MoneyMutationOptions } from '../../../lib/api/money-mutation.ts'
import { request, type QueryParams } from '../../../lib/api/request.ts'

export type BuyNodeInput = QueryParams<'game/buyNode'>

/**
 * `game/buyNode`: a node of a type (1 shareholder, 2 guarding, 3 director) for its price in
 * USDT, which buys HOPE into the split account. The server's refusal (node_owned,
 * insufficient_balance) is toasted by the request wrapper; the key makes a repeat pay once.
 */
export function buyNode(params: BuyNodeInput): Promise<PurchaseResult> {
  return request('game/buyNode', params)
}

/** My nodes, the balance and the account log are refreshed, whatever the caller adds. */
export function useBuyNode(options?: MoneyMutationOptions<PurchaseResult, BuyNodeInput>) {
  return useMoneyMutation('buyNode', buyNode, options)
}
