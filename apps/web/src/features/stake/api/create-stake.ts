import type { StakeParams, StakeResult } from '@hope/api'
import { useMoneyMutation, type MoneyMutationOptions } from '../../../lib/api/money-mutation.ts'
import { request } from '../../../lib/api/request.ts'

/**
 * `game/change`: a consensus entry, USDT paid for HOPE at the stage price (split across
 * stages) into a new position. The server's refusal (stake_amount_invalid,
 * insufficient_balance, …) is toasted by the request wrapper in the user's language; the key
 * makes a repeat with the same key pay once.
 */
export function createStake(params: StakeParams): Promise<StakeResult> {
  return request('game/change', params)
}

/** The balance, the account log, the stage and summary, and the positions are refreshed. */
export function useCreateStake(options?: MoneyMutationOptions<StakeResult, StakeParams>) {
  return useMoneyMutation('stake', createStake, options)
}
