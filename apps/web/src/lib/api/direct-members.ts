import type { DirectMember, Page } from '@hope/api'
import { infiniteQueryOptions } from '@tanstack/react-query'
import { request } from '../request.ts'
import { teamKeys } from './team-keys.ts'

export const MEMBER_PAGE_SIZE = 20

const nextPageNum = (page: Page<DirectMember>): number | undefined =>
  page.pageNum * page.pageSize < page.total ? page.pageNum + 1 : undefined

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
