import type { RouteData, RoutePath } from '@hope/api'
import { keepPreviousData, queryOptions, type QueryKey } from '@tanstack/react-query'
import type { PageRequest } from './pagination.ts'
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

/**
 * A searchable list's page as a query: `filters` and the page `search` asks for, under
 * `keys.list(search)`.
 * @example searchPageOptions(auditKeys, 'admin/audit', search, { action: search.action || undefined })
 */
export function searchPageOptions<P extends RoutePath, S extends PageRequest, K extends QueryKey>(
  keys: { list: (search: S) => K },
  path: P,
  search: S,
  filters: Omit<QueryParams<P>, keyof PageRequest>,
) {
  const params = { ...filters, pageNum: search.pageNum, pageSize: search.pageSize }
  return pageQueryOptions(keys.list(search), path, params as QueryParams<P>)
}

/** The query keys of a searchable list: `all` of it, and one `list` page for a search. */
export function searchKeys<S extends PageRequest>(name: string) {
  const all = [name] as const
  return { all, list: (search: S) => [...all, 'list', search] as const }
}
