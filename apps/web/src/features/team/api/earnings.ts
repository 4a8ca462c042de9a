import { queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { teamKeys } from '../../../lib/api/team-keys.ts'

/**
 * `game/earnings`: the rewards my accounts have received by log type (7, 8, 11, 4, 3, 10),
 * in all and on the current settlement day.
 */
export function earningsOptions() {
  return queryOptions({
    queryKey: teamKeys.earnings(),
    queryFn: ({ signal }) => request('game/earnings', {}, { signal }),
    staleTime: 0,
  })
}
