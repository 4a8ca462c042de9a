import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Icon } from '../../lib/icons.tsx'

/** react-router keeps the entry's index in history.state; 0 (or none) means nothing to go back to. */
function hasHistory(): boolean {
  const state: unknown = window.history.state
  const idx = state && typeof state === 'object' && 'idx' in state ? state.idx : undefined
  return typeof idx === 'number' && idx > 0
}

/**
 * The shared bar: back arrow, centred title, optional right slot. Back goes one step in
 * history, or to `/` when there is none. With `back={false}` it is a plain page header.
 */
export function BackBar({
  title,
  right,
  back = true,
}: {
  title: ReactNode
  right?: ReactNode
  back?: boolean
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const goBack = () => {
    if (hasHistory()) void navigate(-1)
    else void navigate('/', { replace: true })
  }
  return (
    <header className="back-bar" data-testid="back-bar">
      <div className="back-bar__side">
        {back && (
          <button
            type="button"
            className="back-bar__back"
            aria-label={t('common.back')}
            data-testid="back-button"
            onClick={goBack}
          >
            <Icon name="back" />
          </button>
        )}
      </div>
      <h1 className="back-bar__title" data-testid="page-title">
        {title}
      </h1>
      <div className="back-bar__side back-bar__side--right">{right}</div>
    </header>
  )
}
