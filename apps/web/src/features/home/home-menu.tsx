import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { showAlert } from '../../lib/ui/dialog.ts'
import { Icon, type IconName } from '../../lib/ui/icons.tsx'

/** Staking, Ranking and Quotes open their screens; the others are not open yet and say so. */
const MENU = [
  { key: 'mall', icon: 'mall' },
  { key: 'fighting', icon: 'fighting' },
  { key: 'staking', icon: 'stake', route: '/stake' },
  { key: 'ranking', icon: 'ranking', route: '/ranking' },
  { key: 'quotes', icon: 'quotes', route: '/quotes' },
  { key: 'globalPayment', icon: 'globe' },
] as const satisfies readonly { key: string; icon: IconName; route?: string }[]

type SoonKey = Exclude<(typeof MENU)[number], { route: string }>['key']

export function HomeMenu() {
  const { t } = useTranslation()
  const navigate = useNavigate()

  const comingSoon = (key: SoonKey) =>
    showAlert({
      title: t(`home.menu.${key}`),
      content: (
        <p className="home-soon" data-testid="coming-soon-text">
          {t(`home.comingSoon.${key}`)}
        </p>
      ),
      confirmText: t('common.confirm'),
    })

  return (
    <nav className="card home-menu" aria-label={t('home.menuTitle')}>
      <ul className="home-menu__row">
        {MENU.map((item) => (
          <li key={item.key}>
            <button
              type="button"
              className="entry"
              onClick={() =>
                'route' in item ? void navigate(item.route) : void comingSoon(item.key)
              }
              data-testid={`home-menu-${item.key}`}
            >
              <span className={`home-menu__icon home-menu__icon--${item.key}`}>
                <Icon name={item.icon} />
              </span>
              <span className="entry__label">{t(`home.menu.${item.key}`)}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  )
}
