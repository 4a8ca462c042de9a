import { request } from '../../../lib/api/request.ts'
import { stakingKeys } from '../../../lib/api/staking-keys.ts'
import { pagedQueryOptions } from '../../../lib/api/paged-query.ts'

export const PLEDGE_PAGE_SIZE = 20

/** `game/stakeList`: the pledged parts of the user's redemptions, newest first. */
export function myPledgesOptions() {
  return pagedQueryOptions(stakingKeys.pledges(), (pageNum, signal) =>
    request('game/stakeList', { pageNum, pageSize: PLEDGE_PAGE_SIZE }, { signal }),
  )
}
