import { Alert, Button } from 'antd'
import { useTranslation } from 'react-i18next'
import { errorText } from './request.ts'

/** A list's error state: the server's message and a retry. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation()
  return (
    <Alert
      type="error"
      showIcon
      data-testid="admin-load-error"
      title={t('common.loadFailed')}
      description={errorText(error, t('common.networkError'))}
      action={
        <Button size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
      style={{ marginBottom: 16 }}
    />
  )
}
