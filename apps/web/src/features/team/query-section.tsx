import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { QuerySection as QueriesSection } from '../../lib/ui/query-section.tsx'

/**
 * The part of a team screen that one query fills: a skeleton while it loads, a retry when it
 * failed with nothing to show, else its content. Test ids: `<testId>-skeleton`, `<testId>-retry`.
 */
export function QuerySection<T>({
  query,
  ...props
}: {
  query: UseQueryResult<T>
  testId: string
  className?: string
  lines?: number
  children: (data: T) => ReactNode
}) {
  return <QueriesSection queries={[query]} retryClassName="team-retry" {...props} />
}
