import { infiniteQueryOptions } from '@tanstack/react-query'
import { request } from './request.ts'
import { teamKeys } from './team-keys.ts'
import { nextPageNum } from './next-page.ts'

export const MEMBER_PAGE_SIZE = 20

/** `game/groupZt`: the members I invited directly, newest first (the team screen, the activation's picker). */
export function directMembersOptions() {
  return infiniteQueryOptions({
    queryKey: teamKeys.members(),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      request('game/groupZt', { pageNum: pageParam, pageSize: MEMBER_PAGE_SIZE }, { signal }),
    getNextPageParam: nextPageNum,
    staleTime: 0,
  })
}
