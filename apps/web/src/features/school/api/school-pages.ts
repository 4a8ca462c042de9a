import type { Lang, SchoolKind } from '@hope/api'
import { infiniteQueryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { schoolKeys } from './school-keys.ts'
import { nextPageNum } from '../../../lib/api/next-page.ts'

export const SCHOOL_PAGE_SIZE = 10

/** `main/school`: the published articles and videos (of one kind, or both), newest first. */
export function schoolPagesOptions(lang: Lang, kind?: SchoolKind) {
  return infiniteQueryOptions({
    queryKey: schoolKeys.pages(lang, kind),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      request(
        'main/school',
        { pageNum: pageParam, pageSize: SCHOOL_PAGE_SIZE, kind },
        { signal, lang },
      ),
    getNextPageParam: nextPageNum,
  })
}
