import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider } from 'antd'
import enUS from 'antd/locale/en_US'
import zhCN from 'antd/locale/zh_CN'
// antd's date pickers name months and weekdays through dayjs, which knows only English until
// a locale is loaded: the Chinese console needs dayjs's Chinese.
import 'dayjs/locale/zh-cn'
import { useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError, errorText } from '../lib/request.ts'

/**
 * A mutation's failure shows the server's translated message once, unless its screen shows
 * it itself (`meta.inlineError`); an ended session needs none: the login screen follows.
 */
function MutationErrors({ client }: { client: QueryClient }) {
  const { message } = AntApp.useApp()
  const { t } = useTranslation()
  useEffect(
    () =>
      client.getMutationCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'error') return
        if (event.mutation.meta?.inlineError) return
        const error = event.action.error
        if (error instanceof ApiError && error.code === 401) return
        void message.error(errorText(error, t('common.networkError')))
      }),
    [client, message, t],
  )
  return null
}

/** antd in the console language (its own texts: zh_CN or en_US), the query cache, messages. */
export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  const { i18n } = useTranslation()
  return (
    <ConfigProvider locale={i18n.language === 'en' ? enUS : zhCN}>
      <AntApp>
        <QueryClientProvider client={client}>
          <MutationErrors client={client} />
          {children}
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  )
}
