import { normalizeLang, trimDecimal, type AccountBalance } from '@hope/api'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { balanceOptions, balanceTotals } from '../../lib/api/balance.ts'
import { useFirstRead } from '../../lib/first-read.ts'
import { formatMoney } from '../../lib/format.ts'
import { Icon } from '../../lib/icons.tsx'
import { Refreshable } from '../../lib/refreshable.tsx'
import './assets.css'

/** Its own chunk, with TanStack Query: the screen shows before it (see figures-card.tsx). */
const FiguresCard = lazy(() => import('./figures-card.tsx'))

function AccountCard({ account }: { account: AccountBalance }) {
  const { t, i18n } = useTranslation(['money', 'translation'])
  const lang = normalizeLang(i18n.language)
  const navigate = useNavigate()
  const { kind } = account
  return (
    <article className="account-card" data-testid={`account-card-${kind}`}>
      <button
        type="button"
        className="account-card__main"
        onClick={() => void navigate(`/accountLog?account=${kind}`)}
      >
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
          <span className="account-card__fact">
            <span className="account-card__label">{t('assets.available')}</span>
            <span data-testid={`account-available-${kind}`}>
              {formatMoney(account.available, lang)}
            </span>
          </span>
          {trimDecimal(account.locked) !== '0' && (
            <span className="account-card__fact">
              <span className="account-card__label">{t('assets.locked')}</span>
              <span data-testid={`account-locked-${kind}`}>
                {formatMoney(account.locked, lang)}
              </span>
            </span>
          )}
          {trimDecimal(account.pending) !== '0' && (
            <span className="account-card__fact">
              <span className="account-card__label">{t('assets.pending')}</span>
              <span data-testid={`account-pending-${kind}`}>
                {formatMoney(account.pending, lang)}
              </span>
            </span>
          )}
          <span className="account-card__fact">
            <span className="account-card__label">{t('assets.valueUsdt')}</span>
            <span data-testid={`account-value-${kind}`}>
              ≈ {formatMoney(account.valueUsdt, lang)}
            </span>
          </span>
        </span>
      </button>
      {kind === 'usdt' && (
        <div className="account-card__actions">
          <button
            type="button"
            className="account-card__action account-card__action--primary"
            onClick={() => void navigate('/recharge')}
            data-testid="assets-action-recharge"
          >
            <Icon name="recharge" />
            {t('translation:titles.recharge')}
          </button>
          <button
            type="button"
            className="account-card__action"
            onClick={() => void navigate('/transfer')}
            data-testid="assets-action-transfer"
          >
            <Icon name="transfer" />
            {t('translation:titles.transfer')}
          </button>
          <button
            type="button"
            className="account-card__action"
            onClick={() => void navigate('/withdraw')}
            data-testid="assets-action-withdraw"
          >
            <Icon name="withdraw" />
            {t('translation:titles.withdraw')}
          </button>
        </div>
      )}
    </article>
  )
}

function AssetsSkeleton() {
  return (
    <div aria-busy="true" data-testid="assets-skeleton">
      <section className="assets-summary">
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
  const navigate = useNavigate()
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
          <button
            type="button"
            className="assets-retry"
            onClick={() => void balance.refetch()}
            data-testid="assets-retry"
          >
            {t('translation:common.loadFailed')}
          </button>
        ) : (
          <>
            <section className="assets-summary">
              <div className="assets-summary__head">
                <span className="assets-summary__label">{t('assets.total')}</span>
                <button
                  type="button"
                  className="assets-summary__log"
                  onClick={() => void navigate('/accountLog')}
                  data-testid="assets-log-link"
                >
                  {t('translation:titles.accountLog')}
                  <Icon name="chevron" />
                </button>
              </div>
              <p className="assets-summary__total" data-testid="assets-total">
                {formatMoney(balanceTotals(balance.data).totalValueUsdt, lang)}
              </p>
              <p className="assets-summary__price" data-testid="assets-hope-price">
                {t('assets.hopePrice', {
                  price: formatMoney(balanceTotals(balance.data).hopePriceUsdt, lang),
                })}
              </p>
              <button
                type="button"
                className="assets-summary__log assets-summary__verify"
                onClick={() => void navigate('/verify')}
                data-testid="assets-verify-link"
              >
                <Icon name="holder" />
                {t('translation:titles.verify')}
                <Icon name="chevron" />
              </button>
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
          </>
        )}
      </Refreshable>
    </div>
  )
}
