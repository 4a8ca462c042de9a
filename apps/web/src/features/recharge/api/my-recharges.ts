import { infiniteQueryOptions } from '@tanstack/react-query'
import { accountKeys } from '../../../lib/api/account-keys.ts'
import { request } from '../../../lib/api/request.ts'
import { nextPageNum } from '../../../lib/api/next-page.ts'

export const RECHARGE_PAGE_SIZE = 20

/**
 * `userAccount/myRecharge`, newest first: recharges made here and plain wallet transfers
 * from the user's address alike.
 */
export function myRechargesOptions() {
  return infiniteQueryOptions({
    queryKey: accountKeys.rechargePages(),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      request(
        'userAccount/myRecharge',
        { pageNum: pageParam, pageSize: RECHARGE_PAGE_SIZE },
        { signal },
      ),
    getNextPageParam: nextPageNum,
  })
}
