import type { Lang, NewsTypeCode } from '@hope/api'
import { queryOptions } from '@tanstack/react-query'
import { request } from './request.ts'
import { pagedQueryOptions } from './paged-query.ts'

export const NEWS_PAGE_SIZE = 10

/**
 * One key factory for the `main/news` and `main/newInfo` calls (the home teaser and ticker,
 * the account page's news module and the news screens). Texts come in the request's
 * language, so the language is part of every key: a switch asks again.
 */
export const newsKeys = {
  all: ['news'] as const,
  latest: (lang: Lang, pageSize: number, type?: NewsTypeCode) =>
    [...newsKeys.all, lang, 'latest', pageSize, type ?? 'all'] as const,
  pages: (lang: Lang, type?: NewsTypeCode) =>
    [...newsKeys.all, lang, 'pages', type ?? 'all'] as const,
  detail: (lang: Lang, id: number) => [...newsKeys.all, lang, 'detail', id] as const,
}

/** The newest `pageSize` articles (of one type, or all); failures stay quiet (a teaser). */
export function latestNewsOptions(lang: Lang, pageSize: number, type?: NewsTypeCode) {
  return queryOptions({
    queryKey: newsKeys.latest(lang, pageSize, type),
    queryFn: ({ signal }) =>
      request('main/news', { pageNum: 1, pageSize, type }, { signal, hideToast: true, lang }),
  })
}

/** The news list of one type (or all), page after page. */
export function newsPagesOptions(lang: Lang, type?: NewsTypeCode) {
  return pagedQueryOptions(newsKeys.pages(lang, type), (pageNum, signal) =>
    request('main/news', { pageNum, pageSize: NEWS_PAGE_SIZE, type }, { signal, lang }),
  )
}
