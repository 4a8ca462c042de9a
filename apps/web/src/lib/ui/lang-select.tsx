import { LANGS, normalizeLang, type Lang } from '@hope/api'
import { useTranslation } from 'react-i18next'
import { setLanguage } from '../i18n/i18n.ts'
import { Icon } from './icons.tsx'
import { LANG_NAMES } from '../format/lang-names.ts'
import './lang-select.css'

/**
 * A compact language switch for screens before sign-in (no wallet, invite): a native select,
 * so it works in every in-app browser and adds nothing heavy. Each language is named in itself.
 */
export function LangSelect({ className = '' }: { className?: string }) {
  const { t, i18n } = useTranslation()
  const current = normalizeLang(i18n.language)
  return (
    <label className={`lang-select ${className}`}>
      <Icon name="globe" className="lang-select__icon" />
      <select
        aria-label={t('account.language')}
        value={current}
        onChange={(event) => void setLanguage(event.target.value as Lang)}
        data-testid="lang-select"
      >
        {LANGS.map((lang) => (
          <option key={lang} value={lang}>
            {LANG_NAMES[lang]}
          </option>
        ))}
      </select>
    </label>
  )
}
