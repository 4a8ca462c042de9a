import type { DepositAddress } from '@hope/api'
import { queryOptions } from '@tanstack/react-query'
import { request } from './request.ts'
import { accountKeys } from './account-keys.ts'

/**
 * `userAccount/getAddress`: the configured chain, its USDT contract and the platform's deposit
 * address (503 `service_unavailable` until operators configure a chain). Recharge needs all
 * of it; the record lists only its explorer link. Silent: each screen says what it lacks.
 */
export function fetchDepositAddress(signal?: AbortSignal): Promise<DepositAddress> {
  return request('userAccount/getAddress', {}, { hideToast: true, ...(signal ? { signal } : {}) })
}

export function depositAddressOptions() {
  return queryOptions({
    queryKey: accountKeys.depositAddress(),
    queryFn: ({ signal }) => fetchDepositAddress(signal),
    staleTime: 5 * 60_000,
  })
}

/**
 * The explorer page of a transaction, or null when no explorer is configured.
 * @example explorerTxLink('https://etherscan.io/tx/{hash}', '0xab…') // 'https://etherscan.io/tx/0xab…'
 */
export function explorerTxLink(template: string | undefined, txHash: string): string | null {
  if (!template || !template.includes('{hash}')) return null
  return template.replaceAll('{hash}', txHash)
}
