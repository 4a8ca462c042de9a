import { normalizeLang } from '@hope/api'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { antdConfig } from '../lib/i18n.ts'

/** antd-mobile's own texts follow the app language (its built-in default is Chinese). */
export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation()
  const config = antdConfig(normalizeLang(i18n.language))
  return config ? <config.Provider locale={config.locale}>{children}</config.Provider> : children
}
