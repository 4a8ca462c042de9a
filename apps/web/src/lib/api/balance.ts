import { queryOptions } from '@tanstack/react-query'
import { request } from '../request.ts'
import { accountKeys } from './account-keys.ts'

/**
 * `userAccount/balance`: the five accounts, the total value in USDT and the HOPE price used.
 * Shared by home (summary), assets and transfer (available USDT).
 */
export function balanceOptions() {
  return queryOptions({
    queryKey: accountKeys.balance(),
    queryFn: ({ signal }) => request('userAccount/balance', {}, { signal }),
    // Money moves outside this page (deposits, operators, transfers from others): every
    // screen that shows a balance asks again when it opens, showing the last known meanwhile.
    staleTime: 0,
  })
}
