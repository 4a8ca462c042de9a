import { Form } from 'antd'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/** The reason an operator gives for a change, required and not blank: its input is `children`. */
export function ReasonField({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <Form.Item
      name="reason"
      label={t('common.reason')}
      rules={[{ required: true, whitespace: true, message: t('common.reasonRequired') }]}
    >
      {children}
    </Form.Item>
  )
}
