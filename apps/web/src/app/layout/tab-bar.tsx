import TabBar from 'antd-mobile/es/components/tab-bar'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { Icon, type IconName } from '../../lib/icons.tsx'

const TABS = [
  { path: '/', key: 'home', icon: 'home' },
  { path: '/assets', key: 'assets', icon: 'assets' },
  { path: '/stake', key: 'stake', icon: 'stake' },
  { path: '/community', key: 'community', icon: 'community' },
] as const satisfies readonly { path: string; key: string; icon: IconName }[]

export const TAB_PATHS: readonly string[] = TABS.map((tab) => tab.path)

export function AppTabBar() {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const navigate = useNavigate()
  return (
    <nav className="tab-bar" data-testid="tab-bar">
      <TabBar activeKey={pathname} onChange={(path) => void navigate(path)} safeArea>
        {TABS.map((tab) => (
          <TabBar.Item
            key={tab.path}
            icon={<Icon name={tab.icon} />}
            title={t(`tabs.${tab.key}`)}
            data-testid={`tab-${tab.key}`}
          />
        ))}
      </TabBar>
    </nav>
  )
}
