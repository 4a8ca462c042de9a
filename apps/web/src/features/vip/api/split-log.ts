import type { AccountLogPage } from '@hope/api'
import { infiniteQueryOptions } from '@tanstack/react-query'
import { accountKeys } from '../../../lib/api/account-keys.ts'
import { request } from '../../../lib/api/request.ts'

export const SPLIT_LOG_PAGE_SIZE = 20

/**
 * `userAccount/balanceDetail` of the split account, newest first, one page per cursor: each
 * page's `nextCursor` is the next request's `cursor`, null at the end. It shares its key with
 * the account log filtered to the split account, so a money movement refreshes both.
 */
export function splitLogOptions() {
  return infiniteQueryOptions({
    queryKey: accountKeys.log({ account: 'split' }),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      request(
        'userAccount/balanceDetail',
        { pageSize: SPLIT_LOG_PAGE_SIZE, account: 'split', cursor: pageParam ?? undefined },
        { signal },
      ),
    getNextPageParam: (page: AccountLogPage) => page.nextCursor,
  })
}
