import type { PurchaseResult } from '@hope/api'
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query'
import { refreshAfter } from '../../../lib/api/refresh-after.ts'
import { request, type ApiError, type QueryParams } from '../../../lib/api/request.ts'

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

type Options = Omit<UseMutationOptions<PurchaseResult, ApiError, ActivateInput>, 'mutationFn'>

/** My members' levels, my level info, the balance and the account log are refreshed. */
export function useActivateMember({ onSuccess, ...options }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn: activateMember,
    onSuccess: (...args) => {
      refreshAfter(queryClient, 'activate')
      return onSuccess?.(...args)
    },
  })
}
