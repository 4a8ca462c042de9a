import Skeleton from 'antd-mobile/es/components/skeleton'
import { lazy, Suspense, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LEVELS } from '@hope/api'
import { CopyButton } from '../../lib/ui/copy-button.tsx'
import { LatestNewsSection } from '../../lib/ui/latest-news.tsx'
import { Icon, type IconName } from '../../lib/ui/icons.tsx'
import { mask } from '../../lib/format/mask.ts'
import { useSession } from '../../lib/store.ts'
import { UserAvatar } from '../../lib/ui/user-avatar.tsx'
import BalanceSummary from './balance-summary.tsx'
import HomeBanner from './home-banner.tsx'
import { HomeMenu } from './home-menu.tsx'
import NewsTicker from './news-ticker.tsx'
import { PriceStrip } from './price-strip.tsx'
import { NavButton } from '../../lib/ui/nav-button.tsx'
import './home.css'

const HomeNodes = lazy(() => import('./home-nodes.tsx'))

const ENTRIES = [
  { route: 'assets', icon: 'assets' },
  { route: 'stake', icon: 'stake' },
  { route: 'community', icon: 'community' },
  { route: 'vip', icon: 'vip' },
  { route: 'swap', icon: 'swap' },
  { route: 'recharge', icon: 'recharge' },
  { route: 'withdraw', icon: 'withdraw' },
  { route: 'transfer', icon: 'transfer' },
  { route: 'team', icon: 'team' },
  { route: 'share', icon: 'share' },
  { route: 'news', icon: 'news' },
  { route: 'withdrawRecord', icon: 'record' },
  { route: 'holder', icon: 'holder' },
  { route: 'active', icon: 'active' },
] as const satisfies readonly { route: string; icon: IconName }[]

function UserCard() {
  const { t } = useTranslation()
  const user = useSession((s) => s.userInfo)
  if (!user)
    return (
      <section className="home-user" aria-busy="true">
        <Skeleton.Paragraph lineCount={3} animated />
      </section>
    )
  const level = LEVELS[user.level] ?? 'none'
  return (
    <section className="home-user" data-testid="user-card">
      <div className="home-user__top">
        <UserAvatar user={user} />
        <div className="home-user__who">
          <div className="user-name" data-testid="user-nickname">
            {user.nickName || mask(user.userName)}
          </div>
          <span className="user-level" data-testid="user-level">
            {t(`levels.${level}`)}
          </span>
          {user.nodes && user.nodes.length > 0 && (
            <Suspense fallback={null}>
              <HomeNodes types={user.nodes} />
            </Suspense>
          )}
        </div>
      </div>
      <dl className="home-user__facts">
        <div>
          <dt>{t('home.address')}</dt>
          <dd>
            <span data-testid="user-address">{mask(user.userName)}</span>
            <CopyButton text={user.userName} testId="copy-address" />
          </dd>
        </div>
        <div>
          <dt>{t('home.referralCode')}</dt>
          <dd>
            <span data-testid="user-referral-code">{user.referralCode}</span>
            {user.referralCode && (
              <CopyButton text={user.referralCode} testId="copy-referral-code" />
            )}
          </dd>
        </div>
      </dl>
    </section>
  )
}

/**
 * `#/`: the user, the balance, news and the way into every service. `headerEnd` is what the
 * app puts at the end of the header (the notice bell), beside the account entry.
 */
export function HomePage({ headerEnd }: { headerEnd?: ReactNode }) {
  const { t } = useTranslation()

  return (
    <div className="home" data-testid="home-page">
      <div className="home-hero">
        <header className="home-header">
          <span className="home-brand">{t('brand.name')}</span>
          <div className="home-header__end">
            <NavButton
              className="hero-chip hero-chip--link home-account"
              to="/account"
              data-testid="account-entry"
            >
              <Icon name="globe" />
              <span>{t('home.accountEntry')}</span>
            </NavButton>
            {headerEnd}
          </div>
        </header>
        <UserCard />
        <section className="home-balance" data-testid="home-balance">
          <BalanceSummary />
        </section>
      </div>

      <HomeBanner />
      <NewsTicker />
      <PriceStrip />

      <HomeMenu />

      <section className="card">
        <h2 className="section-title">{t('home.services')}</h2>
        <ul className="entry-grid">
          {ENTRIES.map((entry) => (
            <li key={entry.route}>
              <NavButton
                className="entry"
                to={`/${entry.route}`}
                data-testid={`entry-${entry.route}`}
              >
                <span className="icon-tile">
                  <Icon name={entry.icon} />
                </span>
                <span className="entry__label">{t(`titles.${entry.route}`)}</span>
              </NavButton>
            </li>
          ))}
        </ul>
      </section>

      <LatestNewsSection className="card" testId="latest-news" />
    </div>
  )
}
