import { infiniteQueryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { stakingKeys } from '../../../lib/api/staking-keys.ts'
import { nextPageNum } from '../../../lib/api/next-page.ts'

export const PLEDGE_PAGE_SIZE = 20

/** `game/stakeList`: the pledged parts of the user's redemptions, newest first. */
export function myPledgesOptions() {
  return infiniteQueryOptions({
    queryKey: stakingKeys.pledges(),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      request('game/stakeList', { pageNum: pageParam, pageSize: PLEDGE_PAGE_SIZE }, { signal }),
    getNextPageParam: nextPageNum,
  })
}
