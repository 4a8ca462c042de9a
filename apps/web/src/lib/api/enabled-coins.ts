import { queryOptions } from '@tanstack/react-query'
import { accountKeys } from './account-keys.ts'
import { request } from './request.ts'

/**
 * `userAccount/enableCoins`: decimals, and the minimum and fee of transfers and withdrawals
 * per currency (settings). Shared by transfer and withdraw.
 */
export function enabledCoinsOptions() {
  return queryOptions({
    queryKey: accountKeys.coins(),
    queryFn: ({ signal }) => request('userAccount/enableCoins', {}, { signal }),
    staleTime: 5 * 60_000,
  })
}
