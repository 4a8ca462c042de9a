import type { Recharge } from '@hope/api'
import { queryOptions } from '@tanstack/react-query'
import { accountKeys } from '../../../lib/api/account-keys.ts'
import { request } from '../../../lib/api/request.ts'

/** While a recharge waits for its confirmations, its status is asked again this often. */
export const RECHARGE_POLL_MS = 4000

/**
 * `userAccount/recharge`: records the hash of a transfer the wallet sent to the deposit
 * address and answers its current state. Idempotent per hash, so the status view asks it
 * again to follow the confirmations. Silent: the status view shows what is missing.
 */
export function postRecharge(txHash: string, signal?: AbortSignal): Promise<Recharge> {
  return request('userAccount/recharge', { txHash }, { hideToast: true, signal })
}

/** One recharge, followed every few seconds until it is credited or failed. */
export function rechargeStatusOptions(txHash: string) {
  return queryOptions({
    queryKey: accountKeys.recharge(txHash),
    queryFn: ({ signal }) => postRecharge(txHash, signal),
    staleTime: 0,
    refetchInterval: (query) => {
      const status = query.state.data?.status
      return status === undefined || status === 'on_chain' ? RECHARGE_POLL_MS : false
    },
  })
}
