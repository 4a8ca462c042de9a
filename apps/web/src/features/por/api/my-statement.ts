import type { PorStatement } from '@hope/api'
import { queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { porKeys } from '../../../lib/api/por-keys.ts'

/**
 * `por/myStatement`: what the signed-in user's account log showed at the newest snapshot's cut,
 * to compare with the proof (null before a snapshot with a cut is published).
 */
export function fetchMyStatement(signal?: AbortSignal): Promise<PorStatement | null> {
  return request('por/myStatement', {}, { hideToast: true, ...(signal ? { signal } : {}) })
}

export function myStatementOptions() {
  return queryOptions({
    queryKey: porKeys.myStatement(),
    queryFn: ({ signal }) => fetchMyStatement(signal),
    staleTime: 5 * 60_000,
  })
}
