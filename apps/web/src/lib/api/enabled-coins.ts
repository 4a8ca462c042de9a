import { queryOptions } from '@tanstack/react-query'
import { accountKeys } from '../../../lib/api/account-keys.ts'
import { request } from '../../../lib/request.ts'

/** `userAccount/enableCoins`: decimals, minimum and fee schedule per currency (settings). */
export function enabledCoinsOptions() {
  return queryOptions({
    queryKey: accountKeys.coins(),
    queryFn: ({ signal }) => request('userAccount/enableCoins', {}, { signal }),
    staleTime: 5 * 60_000,
  })
}
