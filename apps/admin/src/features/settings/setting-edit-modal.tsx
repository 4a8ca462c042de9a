import type { AdminSetting } from '@hope/api'
import { Alert, App, Button, Form, Input, Modal, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { ApiError, errorText } from '../../lib/request.ts'
import { ReasonField } from '../../lib/reason-field.tsx'
import { useUpdateSetting } from './api/settings.ts'
import { problemText, rangeText, valueProblem } from './setting-meta.ts'
import { useSettingTexts } from './settings-page.tsx'

interface EditForm {
  value: string
  reason: string
}

/**
 * Edits one setting's JSON value with a reason. The dialog says what the setting is, its unit and
 * range; a value that does not fit is refused with why before the server is asked, and a refusal
 * of the server's says what the setting takes.
 */
export function SettingEditModal({
  setting,
  onClose,
}: {
  setting: AdminSetting
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { label, help, unit } = useSettingTexts()(setting.key)
  const range = rangeText(t, setting.range)
  const [form] = Form.useForm<EditForm>()
  const update = useUpdateSetting({
    onSuccess: (s) => {
      void message.success(t('settings.saved', { key: s.key }))
      onClose()
    },
  })
  const submit = ({ value, reason }: EditForm) =>
    update.mutate({ key: setting.key, value: value.trim(), reason: reason.trim() })

  return (
    <Modal
      open
      width={640}
      title={t('settings.editTitle', { key: label })}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="save"
          type="primary"
          loading={update.isPending}
          onClick={() => form.submit()}
          data-testid="admin-setting-save"
        >
          {t('common.save')}
        </Button>,
      ]}
    >
      {help && <Typography.Paragraph>{help}</Typography.Paragraph>}
      <Typography.Paragraph type="secondary">
        <span className="admin-mono">{setting.key}</span>
        {unit && ` · ${t('settings.unitIs', { unit })}`} · {t('settings.rangeIs', { range })}
        <br />
        {t('settings.default')}: <span className="admin-mono">{setting.defaultValue}</span>
      </Typography.Paragraph>
      <Form<EditForm>
        form={form}
        layout="vertical"
        initialValues={{ value: setting.value, reason: '' }}
        onFinish={submit}
        onValuesChange={() => update.isError && update.reset()}
      >
        <Form.Item
          name="value"
          label={t('settings.value')}
          extra={t('settings.valueHint')}
          rules={[
            { required: true, whitespace: true, message: t('settings.valueRequired') },
            {
              validator: (_, value: string | undefined) => {
                const problem = value?.trim() ? valueProblem(value.trim(), setting.range) : null
                return problem
                  ? Promise.reject(new Error(problemText(t, problem)))
                  : Promise.resolve()
              },
            },
          ]}
        >
          <Input.TextArea
            rows={5}
            className="admin-mono"
            spellCheck={false}
            data-testid="admin-setting-value"
          />
        </Form.Item>
        <ReasonField>
          <Input maxLength={200} data-testid="admin-setting-reason" />
        </ReasonField>
      </Form>
      {update.isError && (
        <Alert
          type="error"
          showIcon
          data-testid="admin-setting-error"
          title={
            update.error instanceof ApiError && update.error.reason === 'setting_invalid'
              ? t('settings.why.refused', { msg: update.error.msg.replace(/[.。]$/, ''), range })
              : errorText(update.error, t('common.networkError'))
          }
        />
      )}
    </Modal>
  )
}
