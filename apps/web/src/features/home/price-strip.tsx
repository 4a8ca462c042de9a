import { normalizeLang, type PriceSymbol } from '@hope/api'
import { useTranslation } from 'react-i18next'
import { priceHistoryOptions, useRefresh } from '../../lib/api/prices.ts'
import { useFirstRead } from '../../lib/api/first-read.ts'
import { formatNumber } from '../../lib/format/format.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { DISPLAY_DECIMALS, changeTone, formatChange, roundPrice } from '../../lib/format/prices.ts'
import { useSession } from '../../lib/store.ts'
import { NavButton } from '../../lib/ui/nav-button.tsx'

const UNITS: Record<PriceSymbol, string> = { ETH: 'USD', HOPE: 'USDT' }
/** The api's PRICE_SYMBOLS, written out: its module's schemas would bring zod to the home. */
const SYMBOLS = ['ETH', 'HOPE'] as const satisfies readonly PriceSymbol[]

/** One price: the session's (spec §3), with its 24-hour change once the day's history is in. */
function PriceItem({ symbol }: { symbol: PriceSymbol }) {
  const { i18n } = useTranslation()
  const price = useSession((s) => (symbol === 'ETH' ? s.ethPrice : s.hopePrice))
  const history = useFirstRead(priceHistoryOptions(symbol, '24h'))
  useRefresh(() => void history.refetch())
  const change = history.data?.change24h ?? null
  const tone = changeTone(change)
  return (
    <span className="home-price" data-testid={`home-price-${symbol}`}>
      <span className="home-price__symbol">{symbol}</span>
      <span className="home-price__value" data-testid="home-price-value">
        {formatNumber(roundPrice(price, DISPLAY_DECIMALS[symbol]), normalizeLang(i18n.language))}{' '}
        <small>{UNITS[symbol]}</small>
      </span>
      <span
        className={`home-price__change home-price__change--${tone}`}
        data-testid="home-price-change"
        data-tone={tone}
      >
        {formatChange(change, normalizeLang(i18n.language)) ?? '–'}
      </span>
    </span>
  )
}

/** The ETH and HOPE prices on the home, leading to the quotes screen. */
export function PriceStrip() {
  const { t } = useTranslation()
  return (
    <NavButton
      className="card home-prices"
      to="/quotes"
      aria-label={t('titles.quotes')}
      data-testid="home-prices"
    >
      {SYMBOLS.map((symbol) => (
        <PriceItem key={symbol} symbol={symbol} />
      ))}
      <Icon name="chevron" className="home-prices__more" />
    </NavButton>
  )
}
