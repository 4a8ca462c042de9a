import { normalizeLang } from '@hope/api'
import { useTranslation } from 'react-i18next'
import { balanceOptions, balanceTotals } from '../../lib/api/balance.ts'
import { formatMoney } from '../../lib/format/format.ts'
import { useFirstRead } from '../../lib/api/first-read.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { BalanceSkeleton } from './balance-skeleton.tsx'
import { NavButton } from '../../lib/ui/nav-button.tsx'
import './balance-summary.css'

/** Total value and spendable USDT from `userAccount/balance`; tapping opens /assets. */
export default function BalanceSummary() {
  const { t, i18n } = useTranslation()
  const lang = normalizeLang(i18n.language)
  const balance = useFirstRead(balanceOptions())
  if (balance.isPending) return <BalanceSkeleton />
  const usdt = balance.data?.find((account) => account.kind === 'usdt')
  const missing = '--'
  return (
    <NavButton className="home-balance__body" to="/assets">
      <span className="home-balance__item">
        <span className="home-balance__label">{t('home.totalAssets')}</span>
        <span className="home-balance__value" data-testid="home-balance-total">
          {balance.data ? formatMoney(balanceTotals(balance.data).totalValueUsdt, lang) : missing}
        </span>
      </span>
      <span className="home-balance__item">
        <span className="home-balance__label">{t('home.usdtAvailable')}</span>
        <span className="home-balance__value" data-testid="home-balance-usdt">
          {usdt ? formatMoney(usdt.available, lang) : missing}
        </span>
      </span>
      <Icon name="chevron" className="home-balance__arrow" />
    </NavButton>
  )
}
