import type { AccountLogPage } from '@hope/api'
import { infiniteQueryOptions } from '@tanstack/react-query'
import { accountKeys, type AccountLogFilters } from '../../../lib/api/account-keys.ts'
import { request } from '../../../lib/api/request.ts'

export const ACCOUNT_LOG_PAGE_SIZE = 20

/** While a line is still pending (a withdrawal on its way), the log asks again this often. */
export const PENDING_POLL_MS = 10_000

/**
 * `userAccount/balanceDetail`, newest first, one page per cursor: each page's `nextCursor`
 * is the next request's `cursor`, null at the end.
 */
export function accountLogOptions(filters: AccountLogFilters) {
  return infiniteQueryOptions({
    queryKey: accountKeys.log(filters),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      request(
        'userAccount/balanceDetail',
        {
          pageSize: ACCOUNT_LOG_PAGE_SIZE,
          account: filters.account,
          logType: filters.logType,
          cursor: pageParam ?? undefined,
        },
        { signal },
      ),
    getNextPageParam: (page: AccountLogPage) => page.nextCursor,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.list.some((e) => e.status === 'pending'))
        ? PENDING_POLL_MS
        : false,
  })
}
