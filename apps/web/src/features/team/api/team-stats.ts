import { queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { teamKeys } from '../../../lib/api/team-keys.ts'

/**
 * `game/groupTj`: my team in numbers and by partition, the rank it earns, the performance
 * that counts toward ranks and each rank's threshold. Downline entries move it at any time,
 * so a screen asks again whenever it opens.
 */
export function teamStatsOptions() {
  return queryOptions({
    queryKey: teamKeys.stats(),
    queryFn: ({ signal }) => request('game/groupTj', {}, { signal }),
    staleTime: 0,
  })
}
