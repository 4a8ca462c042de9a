import type { UseQueryResult } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * The part of a screen that one query fills: a skeleton in the shape of its card while it
 * loads, a retry when it failed with nothing to show, else its content (a failed refresh keeps
 * the last data on screen; the request wrapper has already said what failed).
 * Test ids: `<testId>-skeleton`, `<testId>-retry`.
 */
export function QuerySection<T>({
  query,
  testId,
  className = 'card',
  lines = 3,
  children,
}: {
  query: UseQueryResult<T>
  testId: string
  className?: string
  lines?: number
  children: (data: T) => ReactNode
}) {
  const { t } = useTranslation()
  if (query.data !== undefined) return children(query.data)
  if (query.isError)
    return (
      <button
        type="button"
        className="records-empty records-retry team-retry"
        onClick={() => void query.refetch()}
        data-testid={`${testId}-retry`}
      >
        {t('common.loadFailed')}
      </button>
    )
  return (
    <section className={className} aria-busy="true" data-testid={`${testId}-skeleton`}>
      <Skeleton.Title animated />
      <Skeleton.Paragraph lineCount={lines} animated />
    </section>
  )
}
