import type { PurchaseResult } from '@hope/api'
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query'
import { refreshAfter } from '../../../lib/api/refresh-after.ts'
import { request, type ApiError, type QueryParams } from '../../../lib/api/request.ts'

export type BuyNodeInput = QueryParams<'game/buyNode'>

/**
 * `game/buyNode`: a node of a type (1 shareholder, 2 guarding, 3 director) for its price in
 * USDT, which buys HOPE into the split account. The server's refusal (node_owned,
 * insufficient_balance) is toasted by the request wrapper; the key makes a repeat pay once.
 */
export function buyNode(params: BuyNodeInput): Promise<PurchaseResult> {
  return request('game/buyNode', params)
}

type Options = Omit<UseMutationOptions<PurchaseResult, ApiError, BuyNodeInput>, 'mutationFn'>

/** My nodes, the balance and the account log are refreshed, whatever the caller adds. */
export function useBuyNode({ onSuccess, ...options }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn: buyNode,
    onSuccess: (...args) => {
      refreshAfter(queryClient, 'buyNode')
      return onSuccess?.(...args)
    },
  })
}
