import type { ButtonHTMLAttributes } from 'react'
import { useTranslation } from 'react-i18next'

/** Says that a part of the screen failed to load; a tap asks for it again (`onClick`). */
export function RetryButton(
  props: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'children'>,
) {
  const { t } = useTranslation()
  return (
    <button type="button" {...props}>
      {t('common.loadFailed')}
    </button>
  )
}
