import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { PullToRefresh } from './pull-to-refresh.tsx'

/**
 * A screen's pull to refresh, saying the same words on every screen in the user's language:
 * "pull down", "release", "refreshing", "refreshed".
 */
export function Refreshable({
  onRefresh,
  children,
}: {
  onRefresh: () => Promise<unknown>
  children: ReactNode
}) {
  const { t } = useTranslation('translation')
  return (
    <PullToRefresh
      onRefresh={onRefresh}
      pullingText={t('common.pullToRefresh.pulling')}
      canReleaseText={t('common.pullToRefresh.canRelease')}
      refreshingText={t('common.pullToRefresh.refreshing')}
      completeText={t('common.pullToRefresh.complete')}
    >
      {children}
    </PullToRefresh>
  )
}
