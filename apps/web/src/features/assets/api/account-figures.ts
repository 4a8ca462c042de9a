import { queryOptions } from '@tanstack/react-query'
import { accountKeys } from '../../../lib/api/account-keys.ts'
import { request } from '../../../lib/api/request.ts'

/**
 * `userAccount/figures`: rate of return, trading volume and total volume, with the time the
 * volumes are complete up to. Under `accountKeys.all`, so a money movement refreshes it too.
 */
export function accountFiguresOptions() {
  return queryOptions({
    queryKey: accountKeys.figures(),
    queryFn: ({ signal }) => request('userAccount/figures', {}, { signal }),
    staleTime: 0,
  })
}
