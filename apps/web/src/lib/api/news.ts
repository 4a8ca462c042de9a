import type { NewsItem, Page } from '@hope/api'
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { request } from '../request.ts'

export const NEWS_PAGE_SIZE = 10

/** One key factory for the `main/news` calls, shared by the home teaser and the news list. */
export const newsKeys = {
  all: ['news'] as const,
  latest: (pageSize: number) => [...newsKeys.all, 'latest', pageSize] as const,
  pages: () => [...newsKeys.all, 'pages'] as const,
}

export function latestNewsOptions(pageSize: number) {
  return queryOptions({
    queryKey: newsKeys.latest(pageSize),
    queryFn: ({ signal }) => request('main/news', { pageNum: 1, pageSize }, { signal }),
  })
}

function nextPageNum(page: Page<NewsItem>): number | undefined {
  return page.pageNum * page.pageSize < page.total ? page.pageNum + 1 : undefined
}

export function newsPagesOptions() {
  return infiniteQueryOptions({
    queryKey: newsKeys.pages(),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      request('main/news', { pageNum: pageParam, pageSize: NEWS_PAGE_SIZE }, { signal }),
    getNextPageParam: nextPageNum,
  })
}
