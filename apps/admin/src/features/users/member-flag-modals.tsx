import { NODE_TYPES, type AdminUser } from '@hope/api'
import { App, Form, Input, Modal, Select, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { useFlagRobot, useGrantShareholder } from './api/users.ts'

function ReasonField() {
  const { t } = useTranslation()
  return (
    <Form.Item
      name="reason"
      label={t('common.reason')}
      rules={[{ required: true, whitespace: true, message: t('common.reasonRequired') }]}
    >
      <Input.TextArea maxLength={200} showCount rows={2} data-testid="admin-user-reason" />
    </Form.Item>
  )
}

/** Flag a robot account (it then earns no rewards) or clear the flag, with a reason. */
export function FlagRobotModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<{ reason: string }>()
  const robot = !user.isRobot
  const flag = useFlagRobot({
    onSuccess: () => {
      void message.success(t('common.saved'))
      onClose()
    },
  })
  return (
    <Modal
      open
      title={robot ? t('users.robot.flag') : t('users.robot.unflag')}
      okText={t('common.submit')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={flag.isPending}
      okButtonProps={{ 'data-testid': 'admin-user-flag-submit' }}
    >
      <Typography.Paragraph className="admin-mono">{user.userName}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">
        {robot ? t('users.robot.flagHint') : t('users.robot.unflagHint')}
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={({ reason }) => flag.mutate({ userName: user.userName, robot, reason })}
      >
        <ReasonField />
      </Form>
    </Modal>
  )
}

/** Grant a shareholder tier (node type 1..3) after the member's e-mail application. */
export function GrantShareholderModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<{ type: 1 | 2 | 3; reason: string }>()
  const grant = useGrantShareholder({
    onSuccess: () => {
      void message.success(t('common.saved'))
      onClose()
    },
  })
  return (
    <Modal
      open
      title={t('users.grant.title')}
      okText={t('common.submit')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={grant.isPending}
      okButtonProps={{ 'data-testid': 'admin-user-grant-submit' }}
    >
      <Typography.Paragraph className="admin-mono">{user.userName}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ type: 1 }}
        onFinish={({ type, reason }) => grant.mutate({ userName: user.userName, type, reason })}
      >
        <Form.Item name="type" label={t('users.grant.tier')}>
          <Select
            data-testid="admin-user-grant-type"
            options={NODE_TYPES.map((name, i) => ({
              value: i + 1,
              label: t(`nodes.${name}`),
            }))}
          />
        </Form.Item>
        <ReasonField />
      </Form>
    </Modal>
  )
}
