import type { Lang } from '@hope/api'
import { queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'

/** The home banners, per language (the texts come in the request's language). */
export const bannerKeys = {
  all: ['banners'] as const,
  list: (lang: Lang) => [...bannerKeys.all, lang] as const,
}

/**
 * `main/bannnerInfo`: the published banners in display order. A failure leaves the carousel
 * out quietly; the rest of the home screen does not depend on it.
 */
export function bannersOptions(lang: Lang) {
  return queryOptions({
    queryKey: bannerKeys.list(lang),
    queryFn: ({ signal }) => request('main/bannnerInfo', {}, { signal, hideToast: true, lang }),
    staleTime: 5 * 60_000,
  })
}
