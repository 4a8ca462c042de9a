import type { RankingKind } from '@hope/api'
import { queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { rankingKeys } from './ranking-keys.ts'

/** How many places the ranking screen shows. */
export const RANKING_PAGE_SIZE = 50

/**
 * `main/ranking`: the day's snapshot of a ranking, addresses masked by the server and my own
 * place marked. It changes once a day, so the cache keeps it for a few minutes.
 */
export function rankingOptions(kind: RankingKind) {
  return queryOptions({
    queryKey: rankingKeys.list(kind),
    queryFn: ({ signal }) =>
      request('main/ranking', { kind, pageSize: RANKING_PAGE_SIZE }, { signal }),
    staleTime: 5 * 60_000,
  })
}
