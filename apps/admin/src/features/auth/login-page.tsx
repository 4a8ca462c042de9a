import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons'
import { Alert, Button, Card, Form, Input, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { LanguageSwitch } from '../../lib/language-switch.tsx'
import { errorText } from '../../lib/request.ts'
import { useLogin } from './api/login.ts'
import './login.css'

interface LoginForm {
  username: string
  password: string
  code: string
}

/** The console's sign-in: password plus the 6-digit code of the operator's authenticator. */
export function LoginPage() {
  const { t } = useTranslation()
  const login = useLogin()
  const onFinish = (values: LoginForm) => login.mutate(values)

  return (
    <div className="admin-login">
      <div className="admin-login-lang">
        <LanguageSwitch />
      </div>
      <Card className="admin-login-card">
        <Typography.Title level={3}>{t('login.title')}</Typography.Title>
        <Form<LoginForm> layout="vertical" onFinish={onFinish} requiredMark={false}>
          <Form.Item
            name="username"
            label={t('login.username')}
            rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}
          >
            <Input
              prefix={<UserOutlined />}
              autoComplete="username"
              data-testid="admin-login-username"
            />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('login.password')}
            rules={[{ required: true, message: t('login.passwordRequired') }]}
          >
            <Input.Password
              prefix={<LockOutlined />}
              autoComplete="current-password"
              data-testid="admin-login-password"
            />
          </Form.Item>
          <Form.Item
            name="code"
            label={t('login.code')}
            rules={[{ required: true, pattern: /^\d{6}$/, message: t('login.codeInvalid') }]}
          >
            <Input
              prefix={<SafetyOutlined />}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              data-testid="admin-login-code"
            />
          </Form.Item>
          {login.isError && (
            <Alert
              type="error"
              showIcon
              data-testid="admin-login-error"
              title={errorText(login.error, t('common.networkError'))}
              style={{ marginBottom: 16 }}
            />
          )}
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={login.isPending}
            data-testid="admin-login-submit"
          >
            {t('login.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
