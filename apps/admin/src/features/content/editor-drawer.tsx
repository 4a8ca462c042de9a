import type { Lang } from '@hope/api'
import { Alert, Button, Divider, Drawer, Form, Space } from 'antd'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { errorText } from '../../lib/request.ts'
import type { TranslationDrafts } from './content.rules.ts'
import { TranslationTabs, type TextField } from './translation-tabs.tsx'

/**
 * The editor of a banner, article or school item: the shared fields (children), then the
 * language versions. The whole draft is submitted, including tabs never opened.
 */
export function EditorDrawer<D extends { translations: TranslationDrafts }>({
  title,
  initialValues,
  fields,
  pending,
  error,
  onSubmit,
  onClose,
  children,
}: {
  title: string
  initialValues: D
  fields: TextField[]
  pending: boolean
  error: unknown
  onSubmit: (draft: D) => void
  onClose: () => void
  children: ReactNode
}) {
  const { t } = useTranslation()
  const [form] = Form.useForm<D>()
  const [active, setActive] = useState<Lang>('zhcn')

  return (
    <Drawer
      open
      size={760}
      title={title}
      onClose={onClose}
      data-testid="admin-content-editor"
      footer={
        <Space style={{ justifyContent: 'flex-end', width: '100%' }}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            loading={pending}
            onClick={() => form.submit()}
            data-testid="admin-content-save"
          >
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <Form<D>
        form={form}
        layout="vertical"
        initialValues={initialValues}
        onFinish={() => onSubmit(form.getFieldsValue(true) as D)}
        onFinishFailed={({ errorFields }) => {
          const path = errorFields[0]?.name
          if (path?.[0] === 'translations' && typeof path[1] === 'string') {
            setActive(path[1] as Lang)
          }
        }}
      >
        {children}
        <Divider>{t('content.versions')}</Divider>
        <TranslationTabs fields={fields} active={active} onActiveChange={setActive} />
      </Form>
      {error !== null && error !== undefined && (
        <Alert
          type="error"
          showIcon
          data-testid="admin-content-error"
          title={errorText(error, t('common.networkError'))}
        />
      )}
    </Drawer>
  )
}
