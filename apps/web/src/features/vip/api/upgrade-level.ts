import type { PurchaseResult } from '@hope/api'
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query'
import { refreshAfter } from '../../../lib/api/refresh-after.ts'
import { request, type ApiError } from '../../../lib/api/request.ts'

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

type Options = Omit<UseMutationOptions<PurchaseResult, ApiError, UpgradeLevelParams>, 'mutationFn'>

/** The balance, the account log and the level with its split figures are refreshed. */
export function useUpgradeLevel({ onSuccess, ...options }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn: upgradeLevel,
    onSuccess: (...args) => {
      refreshAfter(queryClient, 'upgrade')
      return onSuccess?.(...args)
    },
  })
}
