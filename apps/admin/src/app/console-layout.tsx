import {
  AuditOutlined,
  CommentOutlined,
  DashboardOutlined,
  FileTextOutlined,
  LogoutOutlined,
  SafetyCertificateOutlined,
  ScheduleOutlined,
  SettingOutlined,
  TeamOutlined,
  UploadOutlined,
  WalletOutlined,
} from '@ant-design/icons'
import type { OperatorRole } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Button, Layout, Menu, Space, Tag, Typography } from 'antd'
import { useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { meOptions, useLogout } from '../features/auth/index.ts'
import { LanguageSwitch } from '../lib/language-switch.tsx'
import { saveSession, type Session } from '../lib/session.ts'
import { sectionPath, sectionsFor, type Section } from './sections.ts'
import './console-layout.css'

const ICONS: Record<Section, ReactNode> = {
  dashboard: <DashboardOutlined />,
  users: <TeamOutlined />,
  withdrawals: <UploadOutlined />,
  deposits: <WalletOutlined />,
  settlement: <ScheduleOutlined />,
  reserves: <SafetyCertificateOutlined />,
  content: <FileTextOutlined />,
  chat: <CommentOutlined />,
  settings: <SettingOutlined />,
  audit: <AuditOutlined />,
}

/** Keeps the stored role in step with `admin/me` (an operator's role may change). */
function useFreshRole(session: Session): void {
  const me = useQuery(meOptions())
  useEffect(() => {
    const data = me.data
    if (data && (data.role !== session.role || data.username !== session.username)) {
      saveSession({ ...session, username: data.username, role: data.role })
    }
  }, [me.data, session])
}

/** The side menu of the operator's role, the header with who is signed in, and the screen. */
export function ConsoleLayout({ session, children }: { session: Session; children: ReactNode }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const logout = useLogout()
  useFreshRole(session)

  const sections = sectionsFor(session.role)
  const selected = sections.find((s) => s !== 'dashboard' && pathname.startsWith(sectionPath(s)))
  const items = sections.map((s) => ({
    key: s,
    icon: ICONS[s],
    label: <span data-testid={`admin-menu-${s}`}>{t(`menu.${s}`)}</span>,
  }))

  return (
    <Layout className="admin-shell">
      <Layout.Sider width={208} theme="dark" breakpoint="lg" collapsedWidth={64}>
        <div className="admin-brand">HOPE</div>
        <Menu
          theme="dark"
          mode="inline"
          items={items}
          selectedKeys={[selected ?? 'dashboard']}
          onClick={({ key }) => void navigate(sectionPath(key as Section))}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="admin-header">
          <Space size="middle">
            <LanguageSwitch />
            <Typography.Text data-testid="admin-operator">{session.username}</Typography.Text>
            <Tag color={ROLE_COLORS[session.role]} data-testid="admin-role">
              {t(`roles.${session.role}`)}
            </Tag>
            <Button
              icon={<LogoutOutlined />}
              loading={logout.isPending}
              onClick={() => logout.mutate()}
              data-testid="admin-logout"
            >
              {t('common.logout')}
            </Button>
          </Space>
        </Layout.Header>
        <Layout.Content className="admin-content">{children}</Layout.Content>
      </Layout>
    </Layout>
  )
}

const ROLE_COLORS: Record<OperatorRole, string> = {
  admin: 'red',
  finance: 'gold',
  content: 'blue',
  support: 'green',
}
