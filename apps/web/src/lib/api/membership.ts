import { queryOptions } from '@tanstack/react-query'
import { request } from './request.ts'

/**
 * One key factory for `game/vipInfo`, read by the membership, split, node and activation
 * screens: an upgrade, a node purchase or an activation refreshes all of them at once.
 */
export const membershipKeys = {
  all: ['membership'] as const,
  info: () => [...membershipKeys.all, 'info'] as const,
}

/**
 * `game/vipInfo`: my level and nodes, what each level and node costs, the nodes' reward
 * shares, and the HOPE bought into the split account with what has been released of it. The
 * daily settlement moves the split figures, so a screen asks again whenever it opens.
 */
export function vipInfoOptions() {
  return queryOptions({
    queryKey: membershipKeys.info(),
    queryFn: ({ signal }) => request('game/vipInfo', {}, { signal }),
    staleTime: 0,
  })
}
