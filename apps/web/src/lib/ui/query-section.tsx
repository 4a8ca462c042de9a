import type { UseQueryResult } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import type { ReactNode } from 'react'
import { RetryButton } from './retry-button.tsx'

type AnyQuery = UseQueryResult<unknown, unknown>
type DataOf<Q> = Q extends UseQueryResult<infer D, unknown> ? D : never

/**
 * The part of a screen that some queries fill together: a skeleton in the shape of its card
 * while any of them loads, a retry of the failed ones when one has nothing to show, else its
 * content from all their data (a failed refresh keeps the last data on screen; the request
 * wrapper has already said what failed). Test ids: `<testId>-skeleton`, `<testId>-retry`.
 * The retry button also takes the screen's own `retryClassName`, if it has one.
 */
export function QuerySection<const Q extends readonly AnyQuery[]>({
  queries,
  testId,
  retryClassName,
  className = 'card',
  lines = 3,
  children,
}: {
  queries: Q
  testId: string
  retryClassName?: string
  className?: string
  lines?: number
  children: (...data: { [K in keyof Q]: DataOf<Q[K]> }) => ReactNode
}) {
  if (queries.every((query) => query.data !== undefined))
    return children(...(queries.map((query) => query.data) as { [K in keyof Q]: DataOf<Q[K]> }))
  if (queries.some((query) => query.isError))
    return (
      <RetryButton
        className={`records-empty records-retry ${retryClassName ?? ''}`.trimEnd()}
        onClick={() => {
          for (const query of queries) if (query.data === undefined) void query.refetch()
        }}
        data-testid={`${testId}-retry`}
      />
    )
  return (
    <section className={className} aria-busy="true" data-testid={`${testId}-skeleton`}>
      <Skeleton.Title animated />
      <Skeleton.Paragraph lineCount={lines} animated />
    </section>
  )
}
