import { Segmented } from 'antd'
import { useTranslation } from 'react-i18next'
import { setLanguage } from './i18n.ts'
import type { ConsoleLang } from './lang.ts'

/** 中文 / English; the choice is kept in this browser. */
export function LanguageSwitch() {
  const { i18n } = useTranslation()
  const value: ConsoleLang = i18n.language === 'en' ? 'en' : 'zhcn'
  return (
    <Segmented<ConsoleLang>
      size="small"
      data-testid="admin-language"
      value={value}
      options={[
        { label: '中文', value: 'zhcn' },
        { label: 'English', value: 'en' },
      ]}
      onChange={(lang) => void setLanguage(lang)}
    />
  )
}
