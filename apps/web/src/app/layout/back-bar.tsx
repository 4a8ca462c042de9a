import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../../lib/ui/icons.tsx'
import { useGoBack } from '../../lib/navigation.ts'
import './back-bar.css'

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
  const goBack = useGoBack()
  return (
    <header className="back-bar" data-testid="back-bar">
      <div className="back-bar__side">
        {back && (
          <button
            type="button"
            className="icon-button back-bar__back"
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
