// `#/quotes`, the quotes view (DESIGN §9). Test ids: screen-quotes, quote-ETH / quote-HOPE (each
// with quote-price, quote-change (data-tone up|down|flat), quote-range-<24h|7d|30d>, quote-chart),
// and per card quote-skeleton / quote-retry while its first answer loads or failed.
import {
  PRICE_RANGES,
  PRICE_SYMBOLS,
  normalizeLang,
  type PriceRange,
  type PriceSymbol,
} from '@hope/api'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatNumber } from '../../lib/format/format.ts'
import { priceHistoryOptions, pricesKeys } from '../../lib/api/prices.ts'
import { QuoteChart } from './quote-chart.tsx'
import { DISPLAY_DECIMALS, changeTone, formatChange, roundPrice } from './quotes.rules.ts'
import { RetryButton } from '../../lib/ui/retry-button.tsx'
import './quotes.css'
import { PillTabs } from '../../lib/ui/pill-tabs.tsx'

function QuoteCard({ symbol }: { symbol: PriceSymbol }) {
  const { t, i18n } = useTranslation(['quotes', 'translation'])
  const lang = normalizeLang(i18n.language)
  const [range, setRange] = useState<PriceRange>('24h')
  const query = useQuery(priceHistoryOptions(symbol, range))
  const data = query.data
  const tone = changeTone(data?.change24h ?? null)
  const decimals = DISPLAY_DECIMALS[symbol]

  return (
    <section className="card quote" data-testid={`quote-${symbol}`}>
      <header className="quote__head">
        <div className="quote__name">
          <span className="quote__symbol">{symbol}</span>
          <span className="quote__full">{t(`quotes.names.${symbol}`)}</span>
        </div>
        {data ? (
          <div className="quote__now">
            <span className="quote__price">
              <span data-testid="quote-price">
                {formatNumber(roundPrice(data.price, decimals), lang)}
              </span>
              <small>{t(`quotes.units.${symbol}`)}</small>
            </span>
            <span
              className={`quote__change quote__change--${tone}`}
              data-testid="quote-change"
              data-tone={tone}
              aria-label={t('quotes.change24h')}
            >
              {formatChange(data.change24h, lang) ?? t('quotes.noChange')}
            </span>
          </div>
        ) : null}
      </header>
      <PillTabs
        tabs={PRICE_RANGES.map((r) => ({ key: r, label: t(`quotes.ranges.${r}`) }))}
        selected={range}
        onSelect={setRange}
        testId="quote-range"
        label={t('quotes.rangeLabel')}
        className="quote__ranges"
        tabClassName="quote__range"
      />
      {data ? (
        <QuoteChart points={data.points} tone={tone} precision={decimals} lang={lang} />
      ) : query.isError ? (
        <RetryButton
          className="quote__retry"
          onClick={() => void query.refetch()}
          data-testid="quote-retry"
        />
      ) : (
        <div className="quote__skeleton" aria-busy="true" data-testid="quote-skeleton">
          <Skeleton.Paragraph lineCount={5} animated />
        </div>
      )}
    </section>
  )
}

/** The quotes view: ETH and HOPE with their current price, 24-hour change and chart. */
export function QuotesPage() {
  const { t } = useTranslation(['quotes', 'translation'])
  const queryClient = useQueryClient()
  return (
    <div className="quotes" data-testid="screen-quotes">
      <Refreshable onRefresh={() => queryClient.invalidateQueries({ queryKey: pricesKeys.all })}>
        {PRICE_SYMBOLS.map((symbol) => (
          <QuoteCard key={symbol} symbol={symbol} />
        ))}
        <p className="quotes__note">{t('quotes.note')}</p>
      </Refreshable>
    </div>
  )
}
