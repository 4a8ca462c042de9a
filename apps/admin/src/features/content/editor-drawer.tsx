import type { ContentKind, Lang } from '@hope/api'
import { Alert, App, Button, Divider, Drawer, Form, Space, Switch } from 'antd'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { errorText } from '../../lib/request.ts'
import { useContentMutation } from './api/content.ts'
import type { TranslationDrafts } from './content.rules.ts'
import { TranslationTabs, type TextField } from './translation-tabs.tsx'

/** The texts of an article or a school item. */
export const ARTICLE_FIELDS: TextField[] = [
  { name: 'title', max: 120 },
  { name: 'summary', max: 300, rows: 2 },
  { name: 'content', max: 6000, rows: 10 },
]

/** Whether the item is shown in the app. */
export function PublishedField() {
  const { t } = useTranslation()
  return (
    <Form.Item name="published" label={t('content.fields.published')} valuePropName="checked">
      <Switch data-testid="admin-content-published" />
    </Form.Item>
  )
}

/**
 * The editor of a banner, article or school item: the shared fields (children), then the
 * language versions. The whole draft is given to `save`, including tabs never opened; a failed
 * save is shown in the editor, a successful one is said and closes it.
 */
export function EditorDrawer<D extends { translations: TranslationDrafts }>({
  kind,
  title,
  initialValues,
  fields,
  save,
  onClose,
  children,
}: {
  kind: ContentKind
  title: string
  initialValues: D
  fields: TextField[]
  save: (draft: D) => Promise<unknown>
  onClose: () => void
  children: ReactNode
}) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<D>()
  const [active, setActive] = useState<Lang>('zhcn')
  const saving = useContentMutation(kind, save, {
    meta: { inlineError: true },
    onSuccess: () => {
      void message.success(t('common.saved'))
      onClose()
    },
  })

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
            loading={saving.isPending}
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
        onFinish={() => saving.mutate(form.getFieldsValue(true) as D)}
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
      {saving.error !== null && (
        <Alert
          type="error"
          showIcon
          data-testid="admin-content-error"
          title={errorText(saving.error, t('common.networkError'))}
        />
      )}
    </Drawer>
  )
}
