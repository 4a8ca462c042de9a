import type { CollectParams, CollectResult } from '@hope/api'
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query'
import { refreshAfter } from '../../../lib/api/refresh-after.ts'
import { request, type ApiError } from '../../../lib/api/request.ts'

/**
 * `userAccount/collect`: moves an amount of the node or shareholder account into the own
 * USDT account. The server's refusal (amount_invalid, insufficient_balance, …) is toasted by
 * the request wrapper; the key makes a repeat with the same key move the money once.
 */
export function collectBalance(params: CollectParams): Promise<CollectResult> {
  return request('userAccount/collect', params)
}

type Options = Omit<UseMutationOptions<CollectResult, ApiError, CollectParams>, 'mutationFn'>

/** The balance and the account log are refreshed, whatever the caller adds. */
export function useCollectBalance({ onSuccess, ...options }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn: collectBalance,
    onSuccess: (...args) => {
      refreshAfter(queryClient, 'collect')
      return onSuccess?.(...args)
    },
  })
}
