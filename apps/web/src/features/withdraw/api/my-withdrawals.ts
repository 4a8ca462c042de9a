import { infiniteQueryOptions } from '@tanstack/react-query'
import { accountKeys } from '../../../lib/api/account-keys.ts'
import { request } from '../../../lib/api/request.ts'
import { nextPageNum } from '../../../lib/api/next-page.ts'

export const WITHDRAWAL_PAGE_SIZE = 20

/** `userAccount/myWithDraw`: the user's withdrawals, newest first. */
export function myWithdrawalsOptions() {
  return infiniteQueryOptions({
    queryKey: accountKeys.withdrawals(),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      request(
        'userAccount/myWithDraw',
        { pageNum: pageParam, pageSize: WITHDRAWAL_PAGE_SIZE },
        { signal },
      ),
    getNextPageParam: nextPageNum,
  })
}
