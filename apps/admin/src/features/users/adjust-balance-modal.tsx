import { ACCOUNT_CURRENCY, ACCOUNT_KINDS, type AccountKind, type AdminUser } from '@hope/api'
import { Alert, App, Form, Input, Modal, Radio, Select, Typography } from 'antd'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { DECIMAL_PATTERN } from '../../lib/format.ts'
import { newIdempotencyKey } from '../../lib/idempotency-key.ts'
import { errorText } from '../../lib/request.ts'
import { ReasonField } from '../../lib/reason-field.tsx'
import { useAdjustBalance, type AdjustDirection } from './api/users.ts'

interface AdjustForm {
  direction: AdjustDirection
  account: AccountKind
  amount: string
  reason: string
}

/**
 * Backend recharge or debit of one account. One idempotency key per opening: a double click
 * or a retry after a lost answer moves the money once; reopening the dialog is a new request.
 */
export function AdjustBalanceModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation()
  const [form] = Form.useForm<AdjustForm>()
  // `user` is fixed for one opening (the dialog unmounts on close): one key per opening.
  const idempotencyKey = useMemo(() => newIdempotencyKey(), [])
  const { message } = App.useApp()
  const adjust = useAdjustBalance({
    meta: { inlineError: true },
    onSuccess: (result) => {
      void message.success(t('users.adjust.done', { before: result.before, after: result.after }))
      onClose()
    },
  })
  const account = Form.useWatch('account', form) ?? 'usdt'

  const submit = (values: AdjustForm) =>
    adjust.mutate({
      direction: values.direction,
      userName: user.userName,
      account: values.account,
      amount: values.amount.trim(),
      reason: values.reason.trim(),
      idempotencyKey,
    })

  return (
    <Modal
      open
      title={t('users.adjust.title')}
      okText={t('common.submit')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={adjust.isPending}
      okButtonProps={{ 'data-testid': 'admin-credit-submit' }}
      destroyOnHidden
    >
      <div data-testid="admin-credit">
        <Typography.Paragraph className="admin-mono">{user.userName}</Typography.Paragraph>
        <Form<AdjustForm>
          form={form}
          layout="vertical"
          initialValues={{ direction: 'credit', account: 'usdt' }}
          onFinish={submit}
        >
          <Form.Item name="direction" label={t('users.adjust.direction')}>
            <Radio.Group
              optionType="button"
              data-testid="admin-credit-direction"
              options={[
                { value: 'credit', label: t('users.adjust.credit') },
                { value: 'debit', label: t('users.adjust.debit') },
              ]}
            />
          </Form.Item>
          <Form.Item name="account" label={t('users.adjust.account')}>
            <Select
              data-testid="admin-credit-account"
              options={ACCOUNT_KINDS.map((kind) => ({
                value: kind,
                label: `${t(`accounts.${kind}`)} (${ACCOUNT_CURRENCY[kind]})`,
              }))}
            />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t('users.adjust.amount', { currency: ACCOUNT_CURRENCY[account] })}
            rules={[
              { required: true, message: t('users.adjust.amountRequired') },
              {
                validator: (_, value: string | undefined) =>
                  !value || (DECIMAL_PATTERN.test(value.trim()) && /[1-9]/.test(value))
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('users.adjust.amountInvalid'))),
              },
            ]}
          >
            <Input inputMode="decimal" data-testid="admin-credit-amount" />
          </Form.Item>
          <ReasonField>
            <Input.TextArea maxLength={200} showCount rows={2} data-testid="admin-credit-reason" />
          </ReasonField>
        </Form>
        {adjust.isError && (
          <Alert type="error" showIcon title={errorText(adjust.error, t('common.networkError'))} />
        )}
      </div>
    </Modal>
  )
}
