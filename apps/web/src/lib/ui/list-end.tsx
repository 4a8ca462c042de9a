import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll'
import { useTranslation } from 'react-i18next'
import { RetryButton } from './retry-button.tsx'
import './list-end.css'

/** What the end of a paged list needs of its `useInfiniteQuery`. */
export interface PagedQuery {
  isPending: boolean
  hasNextPage: boolean
  isFetchNextPageError: boolean
  fetchNextPage(): Promise<unknown>
}

/**
 * The end of a paged list: the next page loads as it scrolls into view, with "loading" while
 * there is more, "no more" under a list that has items, and a retry after a page failed to
 * load. Nothing while the first page loads. Test id: `<testId>-more-retry`.
 */
export function ListEnd({
  query,
  count,
  testId,
}: {
  query: PagedQuery
  /** Items listed so far. */
  count: number
  testId: string
}) {
  const { t } = useTranslation()
  if (query.isPending) return null
  return (
    <InfiniteScroll
      hasMore={query.hasNextPage && !query.isFetchNextPageError}
      loadMore={async () => {
        await query.fetchNextPage()
      }}
    >
      {query.isFetchNextPageError ? (
        <RetryButton
          className="list-more-retry"
          onClick={() => void query.fetchNextPage()}
          data-testid={`${testId}-more-retry`}
        />
      ) : query.hasNextPage ? (
        <span>{t('common.loading')}</span>
      ) : count > 0 ? (
        <span>{t('common.noMore')}</span>
      ) : null}
    </InfiniteScroll>
  )
}
