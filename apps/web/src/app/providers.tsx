import { normalizeLang } from '@hope/api'
import ConfigProvider from 'antd-mobile/es/components/config-provider'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { antdLocale } from '../lib/i18n.ts'

/** antd-mobile's own texts follow the app language (its built-in default is Chinese). */
export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation()
  const locale = antdLocale(normalizeLang(i18n.language))
  return locale ? <ConfigProvider locale={locale}>{children}</ConfigProvider> : children
}
