import type { Lang } from '@hope/api'
import { useTranslation } from 'react-i18next'
import './untranslated-note.css'

/**
 * A small note beside an operator's text served in another language than the user's (the
 * Chinese version, when the item has none in theirs): said, never passed off as a translation.
 */
export function UntranslatedNote({ served }: { served: Lang }) {
  const { t, i18n } = useTranslation()
  if (served === i18n.language) return null
  return (
    <span className="untranslated-note" data-testid="untranslated-note">
      {t('common.untranslated')}
    </span>
  )
}
