import type { CollectParams, CollectResult } from '@hope/api'
import { useMoneyMutation, type MoneyMutationOptions } from '../../../lib/api/money-mutation.ts'
import { request } from '../../../lib/api/request.ts'

/**
 * `userAccount/collect`: moves an amount of the node or shareholder account into the own
 * USDT account. The server's refusal (amount_invalid, insufficient_balance, …) is toasted by
 * the request wrapper; the key makes a repeat with the same key move the money once.
 */
export function collectBalance(params: CollectParams): Promise<CollectResult> {
  return request('userAccount/collect', params)
}

/** The balance and the account log are refreshed, whatever the caller adds. */
export function useCollectBalance(options?: MoneyMutationOptions<CollectResult, CollectParams>) {
  return useMoneyMutation('collect', collectBalance, options)
}
