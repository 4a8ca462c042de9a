import { infiniteQueryOptions, type QueryKey } from '@tanstack/react-query'
import { nextPageNum } from './next-page.ts'

/**
 * The options of a paged list read page after page from `pageNum` 1: `fetchPage` asks for one
 * page, and the list ends after the page that reaches the total.
 * @example pagedQueryOptions(key, (pageNum, signal) => request('game/myStake', { pageNum, pageSize: 20 }, { signal }))
 */
export function pagedQueryOptions<
  TPage extends { pageNum: number; pageSize: number; total: number },
  TKey extends QueryKey,
>(queryKey: TKey, fetchPage: (pageNum: number, signal: AbortSignal) => Promise<TPage>) {
  return infiniteQueryOptions({
    queryKey,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    getNextPageParam: nextPageNum,
  })
}
