import type { StakeParams, StakeResult } from '@hope/api'
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query'
import { refreshAfter } from '../../../lib/api/refresh-after.ts'
import { request, type ApiError } from '../../../lib/api/request.ts'

/**
 * `game/change`: a consensus entry, USDT paid for HOPE at the stage price (split across
 * stages) into a new position. The server's refusal (stake_amount_invalid,
 * insufficient_balance, …) is toasted by the request wrapper in the user's language; the key
 * makes a repeat with the same key pay once.
 */
export function createStake(params: StakeParams): Promise<StakeResult> {
  return request('game/change', params)
}

type Options = Omit<UseMutationOptions<StakeResult, ApiError, StakeParams>, 'mutationFn'>

/** The balance, the account log, the stage and summary, and the positions are refreshed. */
export function useCreateStake({ onSuccess, ...options }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn: createStake,
    onSuccess: (...args) => {
      refreshAfter(queryClient, 'stake')
      return onSuccess?.(...args)
    },
  })
}
