import { queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/request.ts'
import { vipKeys } from './vip-keys.ts'

/**
 * `game/vipInfo`: my membership level and nodes, what each level and node costs, and the
 * HOPE bought into the split account with what has been released of it. The daily settlement
 * moves the split figures, so a screen asks again whenever it opens.
 */
export function vipInfoOptions() {
  return queryOptions({
    queryKey: vipKeys.info(),
    queryFn: ({ signal }) => request('game/vipInfo', {}, { signal }),
    staleTime: 0,
  })
}
