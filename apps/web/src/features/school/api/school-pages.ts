import type { Lang, SchoolKind } from '@hope/api'
import { request } from '../../../lib/api/request.ts'
import { schoolKeys } from './school-keys.ts'
import { pagedQueryOptions } from '../../../lib/api/paged-query.ts'

export const SCHOOL_PAGE_SIZE = 10

/** `main/school`: the published articles and videos (of one kind, or both), newest first. */
export function schoolPagesOptions(lang: Lang, kind?: SchoolKind) {
  return pagedQueryOptions(schoolKeys.pages(lang, kind), (pageNum, signal) =>
    request('main/school', { pageNum, pageSize: SCHOOL_PAGE_SIZE, kind }, { signal, lang }),
  )
}
