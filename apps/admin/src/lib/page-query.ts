import type { RouteData, RoutePath } from '@hope/api'
import { keepPreviousData, queryOptions, type QueryKey } from '@tanstack/react-query'
import { request, type QueryParams } from './request.ts'

/** Asks for the page again every `everyMs` while `busy` says a row on it is still moving. */
export interface PagePoll<P extends RoutePath> {
  everyMs: number
  busy: (page: RouteData<P>) => boolean
}

/**
 * A page of a server list as a query: `path` asked with `params`, the page before shown while
 * the next one loads, and asked again while `poll` says so.
 */
export function pageQueryOptions<P extends RoutePath, K extends QueryKey>(
  queryKey: K,
  path: P,
  params: QueryParams<P>,
  poll?: PagePoll<P>,
) {
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) => request(path, params, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      poll && query.state.data && poll.busy(query.state.data) ? poll.everyMs : false,
  })
}
