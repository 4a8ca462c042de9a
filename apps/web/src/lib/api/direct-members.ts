import { request } from './request.ts'
import { teamKeys } from './team-keys.ts'
import { pagedQueryOptions } from './paged-query.ts'

export const MEMBER_PAGE_SIZE = 20

/** `game/groupZt`: the members I invited directly, newest first (the team screen, the activation's picker). */
export function directMembersOptions() {
  return {
    ...pagedQueryOptions(teamKeys.members(), (pageNum, signal) =>
      request('game/groupZt', { pageNum, pageSize: MEMBER_PAGE_SIZE }, { signal }),
    ),
    staleTime: 0,
  }
}
