import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { Icon, type IconName } from '../../lib/ui/icons.tsx'
import './tab-bar.css'

const TABS = [
  { path: '/', key: 'home', icon: 'home' },
  { path: '/assets', key: 'assets', icon: 'assets' },
  { path: '/stake', key: 'stake', icon: 'stake' },
  { path: '/community', key: 'community', icon: 'community' },
] as const satisfies readonly { path: string; key: string; icon: IconName }[]

/**
 * The bottom tabs (spec §2). Plain buttons rather than antd-mobile's TabBar, whose children
 * walk (react-is, ahooks) would ride on the first screen for four links.
 */
export function AppTabBar() {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const navigate = useNavigate()
  return (
    <nav className="tab-bar" data-testid="tab-bar">
      {TABS.map((tab) => {
        const active = pathname === tab.path
        return (
          <button
            key={tab.path}
            type="button"
            className={active ? 'tab-bar__item tab-bar__item--active' : 'tab-bar__item'}
            aria-current={active ? 'page' : undefined}
            onClick={() => {
              if (!active) void navigate(tab.path)
            }}
            data-testid={`tab-${tab.key}`}
          >
            <Icon name={tab.icon} className="tab-bar__icon" />
            <span className="tab-bar__title">{t(`tabs.${tab.key}`)}</span>
          </button>
        )
      })}
    </nav>
  )
}
