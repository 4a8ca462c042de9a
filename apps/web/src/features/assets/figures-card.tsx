import { normalizeLang } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useTranslation } from 'react-i18next'
import { formatDateTime, formatMoney } from '../../lib/format/format.ts'
import { accountKeys } from '../../lib/api/account-keys.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { accountFiguresOptions } from './api/account-figures.ts'
import { RetryButton } from '../../lib/ui/retry-button.tsx'
import './figures-card.css'

function Figures() {
  const { t, i18n } = useTranslation(['money', 'translation'])
  const lang = normalizeLang(i18n.language)
  const figures = useQuery(accountFiguresOptions())

  if (figures.isPending)
    return (
      <div aria-busy="true" data-testid="assets-figures-loading">
        <Skeleton.Paragraph lineCount={3} animated />
      </div>
    )
  if (figures.isError)
    return (
      <RetryButton
        className="figures-card__retry"
        onClick={() => void figures.refetch()}
        data-testid="assets-figures-retry"
      />
    )
  const { rateOfReturn, tradingVolume, totalVolume, asOf } = figures.data
  const rows = [
    {
      id: 'rate',
      label: t('assets.figures.rateOfReturn'),
      value:
        rateOfReturn === null
          ? '—'
          : t('assets.figures.rateValue', { rate: formatMoney(rateOfReturn, lang) }),
    },
    {
      id: 'trading',
      label: t('assets.figures.tradingVolume'),
      value: formatMoney(tradingVolume, lang),
    },
    { id: 'total', label: t('assets.figures.totalVolume'), value: formatMoney(totalVolume, lang) },
  ]
  return (
    <>
      <dl className="figures-card__list">
        {rows.map((row) => (
          <div key={row.id} className="figures-card__row">
            <dt>{row.label}</dt>
            <dd data-testid={`assets-figure-${row.id}`}>{row.value}</dd>
          </div>
        ))}
      </dl>
      <p className="figures-card__as-of" data-testid="assets-figures-as-of">
        {asOf
          ? t('assets.figures.asOf', { time: formatDateTime(asOf, lang) })
          : t('assets.figures.notCounted')}
      </p>
      <details className="figures-card__help">
        <summary>{t('assets.figures.howCounted')}</summary>
        <p>{t('assets.figures.rateOfReturnHint')}</p>
        <p>{t('assets.figures.tradingVolumeHint')}</p>
        <p>{t('assets.figures.totalVolumeHint')}</p>
      </details>
    </>
  )
}

/**
 * Rate of return, trading volume and total volume under the assets total. Loaded after the
 * screen (the assets screen can open the app and reads without TanStack Query): the card
 * brings the query cache with it.
 */
export default function FiguresCard() {
  const { t } = useTranslation('money')
  return (
    <section className="card figures-card" data-testid="assets-figures">
      <h2 className="figures-card__title">{t('assets.figures.title')}</h2>
      <QueryScope>
        <Figures />
      </QueryScope>
    </section>
  )
}

/** Reads the figures again (the assets screen's pull to refresh). */
export async function refreshFigures(): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: accountKeys.figures() })
}
