import { NODE_TYPES, type AdminUser } from '@hope/api'
import { App, Form, Input, Modal, Select, Typography } from 'antd'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ReasonField } from '../../lib/reason-field.tsx'
import { useFlagRobot, useGrantShareholder } from './api/users.ts'

function MemberReason() {
  return (
    <ReasonField>
      <Input.TextArea maxLength={200} showCount rows={2} data-testid="admin-user-reason" />
    </ReasonField>
  )
}

/** A change to a member, shown by address: submitting saves it, says so and closes. */
function MemberModal({
  user,
  title,
  pending,
  submitTestId,
  onSubmit,
  onClose,
  children,
}: {
  user: AdminUser
  title: string
  pending: boolean
  submitTestId: string
  onSubmit: () => void
  onClose: () => void
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <Modal
      open
      title={title}
      okText={t('common.submit')}
      onOk={onSubmit}
      onCancel={onClose}
      confirmLoading={pending}
      okButtonProps={{ 'data-testid': submitTestId }}
    >
      <Typography.Paragraph className="admin-mono">{user.userName}</Typography.Paragraph>
      {children}
    </Modal>
  )
}

/** What a member change does once it is saved: says so and closes the dialog. */
function useSavedThenClose(onClose: () => void) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  return {
    onSuccess: () => {
      void message.success(t('common.saved'))
      onClose()
    },
  }
}

/** Flag a robot account (it then earns no rewards) or clear the flag, with a reason. */
export function FlagRobotModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation()
  const [form] = Form.useForm<{ reason: string }>()
  const robot = !user.isRobot
  const flag = useFlagRobot(useSavedThenClose(onClose))
  return (
    <MemberModal
      user={user}
      title={robot ? t('users.robot.flag') : t('users.robot.unflag')}
      pending={flag.isPending}
      submitTestId="admin-user-flag-submit"
      onSubmit={() => form.submit()}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">
        {robot ? t('users.robot.flagHint') : t('users.robot.unflagHint')}
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={({ reason }) => flag.mutate({ userName: user.userName, robot, reason })}
      >
        <MemberReason />
      </Form>
    </MemberModal>
  )
}

/** Grant a shareholder tier (node type 1..3) after the member's e-mail application. */
export function GrantShareholderModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation()
  const [form] = Form.useForm<{ type: 1 | 2 | 3; reason: string }>()
  const grant = useGrantShareholder(useSavedThenClose(onClose))
  return (
    <MemberModal
      user={user}
      title={t('users.grant.title')}
      pending={grant.isPending}
      submitTestId="admin-user-grant-submit"
      onSubmit={() => form.submit()}
      onClose={onClose}
    >
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
        <MemberReason />
      </Form>
    </MemberModal>
  )
}
