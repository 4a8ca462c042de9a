import { request } from '../../../lib/api/request.ts'
import { stakingKeys } from '../../../lib/api/staking-keys.ts'
import { pagedQueryOptions } from '../../../lib/api/paged-query.ts'

export const POSITION_PAGE_SIZE = 20

/** `game/myStake`: the user's consensus positions, newest first. */
export function myStakesOptions() {
  return pagedQueryOptions(stakingKeys.positions(), (pageNum, signal) =>
    request('game/myStake', { pageNum, pageSize: POSITION_PAGE_SIZE }, { signal }),
  )
}
