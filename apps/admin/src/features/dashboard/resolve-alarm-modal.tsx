import type { AdminAlarm } from '@hope/api'
import { Alert, App, Form, Input, Modal, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatTime } from '../../lib/format.ts'
import { ReasonField } from '../../lib/reason-field.tsx'
import { errorText } from '../../lib/request.ts'
import { useResolveAlarm } from './api/dashboard.ts'

/**
 * Closes one alarm with a reason, once someone has looked into it: the chain scan's alarms
 * never close by themselves. The server's refusal shows in the dialog.
 */
export function ResolveAlarmModal({ alarm, onClose }: { alarm: AdminAlarm; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<{ reason: string }>()
  const resolve = useResolveAlarm({
    meta: { inlineError: true },
    onSuccess: () => {
      void message.success(t('dashboard.resolveAlarm.done', { id: alarm.id }))
      onClose()
    },
  })
  return (
    <Modal
      open
      title={t('dashboard.resolveAlarm.title', { id: alarm.id })}
      okText={t('dashboard.resolveAlarm.action')}
      okButtonProps={{ 'data-testid': 'admin-alarm-resolve-submit' }}
      confirmLoading={resolve.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph>
        {formatTime(alarm.raisedAt)} · {alarm.message}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">
        {t('dashboard.resolveAlarm.hint')}
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={({ reason }) => resolve.mutate({ id: alarm.id, reason: reason.trim() })}
        onValuesChange={() => resolve.isError && resolve.reset()}
      >
        <ReasonField>
          <Input.TextArea
            maxLength={200}
            showCount
            rows={3}
            data-testid="admin-alarm-resolve-reason"
          />
        </ReasonField>
      </Form>
      {resolve.isError && (
        <Alert
          type="error"
          showIcon
          data-testid="admin-alarm-resolve-error"
          title={errorText(resolve.error, t('common.networkError'))}
        />
      )}
    </Modal>
  )
}
