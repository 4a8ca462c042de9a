import type { Lang } from '@hope/api'
import { queryOptions } from '@tanstack/react-query'
import { newsKeys } from '../../../lib/api/news.ts'
import { request } from '../../../lib/api/request.ts'

/**
 * `main/newInfo`: one article in the user's language (or Chinese). The screen shows its own
 * "not found" state, so the request wrapper's toast stays quiet.
 */
export function newsInfoOptions(lang: Lang, id: number) {
  return queryOptions({
    queryKey: newsKeys.detail(lang, id),
    queryFn: ({ signal }) => request('main/newInfo', { id }, { signal, hideToast: true, lang }),
  })
}
