import type { Page, PledgeItem } from '@hope/api'
import { infiniteQueryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/request.ts'
import { stakingKeys } from '../../../lib/api/staking-keys.ts'

export const PLEDGE_PAGE_SIZE = 20

const nextPageNum = (page: Page<PledgeItem>): number | undefined =>
  page.pageNum * page.pageSize < page.total ? page.pageNum + 1 : undefined

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
