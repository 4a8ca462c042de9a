import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useMemo, type ReactNode } from 'react'
import { ListEnd } from './list-end.tsx'
import { Refreshable } from './refreshable.tsx'
import { RetryButton } from './retry-button.tsx'
import './record-list.css'

/** The records of every page a paged list has loaded so far, in order. */
export function useRecordItems<Item>(
  query: UseInfiniteQueryResult<InfiniteData<{ list: Item[] }>>,
): Item[] {
  return useMemo(() => query.data?.pages.flatMap((page) => page.list) ?? [], [query.data])
}

interface RecordListProps<Page, Item> {
  query: UseInfiniteQueryResult<InfiniteData<Page>>
  items: Item[]
  empty: string
  testId: string
  children: (item: Item) => ReactNode
}

/**
 * A paged record list (withdrawals, recharges, pledges): pull to refresh, a skeleton, a retry,
 * an empty state, and the next page when the end scrolls into view.
 */
export function RecordPages<Page, Item>({ query, ...list }: RecordListProps<Page, Item>) {
  return (
    <Refreshable
      onRefresh={async () => {
        await query.refetch()
      }}
    >
      <RecordItems query={query} {...list} />
    </Refreshable>
  )
}

/**
 * The body of a paged record list without its own pull to refresh, for a screen that shows
 * the list below other content and refreshes it all at once (the stake screen's positions).
 * Test ids: `<testId>-skeleton`, `-retry`, `-empty`, `-more-retry`.
 */
export function RecordItems<Page, Item>({
  query,
  items,
  empty,
  testId,
  children,
}: RecordListProps<Page, Item>) {
  return (
    <>
      {query.isPending ? (
        <div className="card" aria-busy="true" data-testid={`${testId}-skeleton`}>
          <Skeleton.Paragraph lineCount={6} animated />
        </div>
      ) : query.isError && items.length === 0 ? (
        <RetryButton
          className="records-empty records-retry"
          onClick={() => void query.refetch()}
          data-testid={`${testId}-retry`}
        />
      ) : items.length === 0 ? (
        <p className="records-empty" data-testid={`${testId}-empty`}>
          {empty}
        </p>
      ) : (
        <ul className="record-list">{items.map(children)}</ul>
      )}
      <ListEnd query={query} count={items.length} testId={testId} />
    </>
  )
}
