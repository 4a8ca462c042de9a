import {
  CURRENCY_DECIMALS,
  formatAmount,
  normalizeLang,
  parseAmount,
  trimDecimal,
  type AccountBalance,
  type BalanceList,
} from '@hope/api'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { lazy, Suspense, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { balanceOptions, balanceTotals } from '../../lib/api/balance.ts'
import { useFirstRead } from '../../lib/api/first-read.ts'
import { formatMoney } from '../../lib/format/format.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import { NavButton } from '../../lib/ui/nav-button.tsx'
import { RetryButton } from '../../lib/ui/retry-button.tsx'
import './assets.css'

/** Its own chunk, with TanStack Query: the screen shows before it (see figures-card.tsx). */
const FiguresCard = lazy(() => import('./figures-card.tsx'))

/** What the USDT account's card offers, the first one foremost. */
const USDT_ACTIONS = ['recharge', 'transfer', 'withdraw'] as const

/** One figure of an account card: its label over its value. */
function AccountFact({
  label,
  testId,
  children,
}: {
  label: string
  testId: string
  children: ReactNode
}) {
  return (
    <span className="account-card__fact">
      <span className="account-card__label">{label}</span>
      <span data-testid={testId}>{children}</span>
    </span>
  )
}

function AccountCard({ account }: { account: AccountBalance }) {
  const { t, i18n } = useTranslation(['money', 'translation'])
  const lang = normalizeLang(i18n.language)
  const { kind } = account
  return (
    <article className="account-card" data-testid={`account-card-${kind}`}>
      <NavButton className="card-button account-card__main" to={`/accountLog?account=${kind}`}>
        <span className="account-card__head">
          <span className="account-card__name">{t(`accounts.${kind}`)}</span>
          <span className="account-card__currency">{account.currency}</span>
          <Icon name="chevron" className="account-card__arrow" />
        </span>
        <span className="account-card__label">{t('assets.balance')}</span>
        <span className="account-card__balance" data-testid={`account-balance-${kind}`}>
          {formatMoney(account.balance, lang)}
        </span>
        <span className="account-card__facts">
          <AccountFact label={t('assets.available')} testId={`account-available-${kind}`}>
            {formatMoney(account.available, lang)}
          </AccountFact>
          {trimDecimal(account.locked) !== '0' && (
            <AccountFact label={t('assets.locked')} testId={`account-locked-${kind}`}>
              {formatMoney(account.locked, lang)}
            </AccountFact>
          )}
          {trimDecimal(account.pending) !== '0' && (
            <AccountFact label={t('assets.pending')} testId={`account-pending-${kind}`}>
              {formatMoney(account.pending, lang)}
            </AccountFact>
          )}
          <AccountFact label={t('assets.valueUsdt')} testId={`account-value-${kind}`}>
            ≈ {formatMoney(account.valueUsdt, lang)}
          </AccountFact>
        </span>
      </NavButton>
      {kind === 'usdt' && (
        <div className="account-card__actions">
          {USDT_ACTIONS.map((action) => (
            <NavButton
              key={action}
              className={
                action === 'recharge'
                  ? 'outline-button account-card__action account-card__action--primary'
                  : 'outline-button account-card__action'
              }
              to={`/${action}`}
              data-testid={`assets-action-${action}`}
            >
              <Icon name={action} />
              {t(`translation:titles.${action}`)}
            </NavButton>
          ))}
        </div>
      )}
    </article>
  )
}

/**
 * The HOPE held beside the accounts (in consensus positions, pledged and still to release) and
 * the HOPE in all, accounts included: what the proof of liabilities counts for the user.
 */
export function hopeHeld(list: BalanceList): { staked: string; pledged: string; all: string } {
  const units = (value: string) => parseAmount(value, CURRENCY_DECIMALS.HOPE) ?? 0n
  const staked = list[0]?.stakedHope ?? '0'
  const pledged = list[0]?.pledgedHope ?? '0'
  const all = list
    .filter((account) => account.currency === 'HOPE')
    .reduce((sum, account) => sum + units(account.balance), units(staked) + units(pledged))
  return { staked, pledged, all: trimDecimal(formatAmount(all, CURRENCY_DECIMALS.HOPE)) }
}

/** Staked and pledged HOPE: counted in the total value and the proof, shown beside the accounts. */
function HeldHopeCard({ list }: { list: BalanceList }) {
  const { t, i18n } = useTranslation(['money', 'translation'])
  const lang = normalizeLang(i18n.language)
  const held = hopeHeld(list)
  if (trimDecimal(held.staked) === '0' && trimDecimal(held.pledged) === '0') return null
  return (
    <article className="account-card" data-testid="account-card-held-hope">
      <div className="account-card__main">
        <span className="account-card__head">
          <span className="account-card__name">{t('assets.hopeOutside')}</span>
          <span className="account-card__currency">HOPE</span>
        </span>
        <span className="account-card__facts">
          <span className="account-card__fact">
            <span className="account-card__label">{t('assets.staked')}</span>
            <span data-testid="assets-staked-hope">{formatMoney(held.staked, lang)}</span>
          </span>
          <span className="account-card__fact">
            <span className="account-card__label">{t('assets.pledged')}</span>
            <span data-testid="assets-pledged-hope">{formatMoney(held.pledged, lang)}</span>
          </span>
        </span>
      </div>
    </article>
  )
}

function AssetsSkeleton() {
  return (
    <div aria-busy="true" data-testid="assets-skeleton">
      <section className="hero-card assets-summary">
        <Skeleton.Paragraph lineCount={3} animated />
      </section>
      {[1, 2, 3].map((n) => (
        <section key={n} className="card">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={2} animated />
        </section>
      ))}
    </div>
  )
}

/**
 * The five accounts with their total value in USDT (`userAccount/balance`). The app can open
 * here: the balance is read like the home's (started as the page starts, see `preloadScreen`),
 * without waiting for TanStack Query; once that has loaded, through its cache.
 */
export function AssetsPage() {
  const { t, i18n } = useTranslation(['money', 'translation'])
  const lang = normalizeLang(i18n.language)
  const balance = useFirstRead(balanceOptions())

  return (
    <div className="assets" data-testid="assets-page">
      <Refreshable
        onRefresh={async () => {
          await Promise.all([
            balance.refetch(),
            import('./figures-card.tsx').then((card) => card.refreshFigures()),
          ])
        }}
      >
        {balance.isPending ? (
          <AssetsSkeleton />
        ) : balance.isError ? (
          <RetryButton
            className="records-empty records-retry"
            onClick={() => void balance.refetch()}
            data-testid="assets-retry"
          />
        ) : (
          <>
            <section className="hero-card assets-summary">
              <div className="hero-card__head">
                <span className="hero-card__label">{t('assets.total')}</span>
                <NavButton
                  className="hero-chip hero-chip--link assets-summary__log"
                  to="/accountLog"
                  data-testid="assets-log-link"
                >
                  {t('translation:titles.accountLog')}
                  <Icon name="chevron" />
                </NavButton>
              </div>
              <p className="hero-card__amount" data-testid="assets-total">
                {formatMoney(balanceTotals(balance.data).totalValueUsdt, lang)}
              </p>
              <p className="assets-summary__price" data-testid="assets-hope-price">
                {t('assets.hopePrice', {
                  price: formatMoney(balanceTotals(balance.data).hopePriceUsdt, lang),
                })}
              </p>
              <p className="assets-summary__price" data-testid="assets-hope-all">
                {t('assets.hopeAll', { amount: formatMoney(hopeHeld(balance.data).all, lang) })}
              </p>
              <NavButton
                className="hero-chip hero-chip--link assets-summary__log assets-summary__verify"
                to="/verify"
                data-testid="assets-verify-link"
              >
                <Icon name="holder" />
                {t('translation:titles.verify')}
                <Icon name="chevron" />
              </NavButton>
            </section>
            <Suspense
              fallback={
                <section className="card" aria-busy="true">
                  <Skeleton.Paragraph lineCount={3} animated />
                </section>
              }
            >
              <FiguresCard />
            </Suspense>
            {balance.data.map((account) => (
              <AccountCard key={account.kind} account={account} />
            ))}
            <HeldHopeCard list={balance.data} />
          </>
        )}
      </Refreshable>
    </div>
  )
}
