import type { Lang } from '@hope/api'
import { queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { schoolKeys } from './school-keys.ts'

/** `main/schoolInfo`: one item; the screen shows its own "not found" state. */
export function schoolInfoOptions(lang: Lang, id: number) {
  return queryOptions({
    queryKey: schoolKeys.detail(lang, id),
    queryFn: ({ signal }) => request('main/schoolInfo', { id }, { signal, hideToast: true, lang }),
  })
}
