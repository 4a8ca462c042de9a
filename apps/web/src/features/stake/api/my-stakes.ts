import { infiniteQueryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { stakingKeys } from '../../../lib/api/staking-keys.ts'
import { nextPageNum } from '../../../lib/api/next-page.ts'

export const POSITION_PAGE_SIZE = 20

/** `game/myStake`: the user's consensus positions, newest first. */
export function myStakesOptions() {
  return infiniteQueryOptions({
    queryKey: stakingKeys.positions(),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      request('game/myStake', { pageNum: pageParam, pageSize: POSITION_PAGE_SIZE }, { signal }),
    getNextPageParam: nextPageNum,
  })
}
