import { z } from 'zod'
import { parseAmount } from './money.ts'

/** The prices the quotes view charts: ETH in USD and HOPE in USDT. */
export const PRICE_SYMBOLS = ['ETH', 'HOPE'] as const
export type PriceSymbol = (typeof PRICE_SYMBOLS)[number]

/** The windows a price chart covers. */
export const PRICE_RANGES = ['24h', '7d', '30d'] as const
export type PriceRange = (typeof PRICE_RANGES)[number]

/** Prices are decimal strings with at most 18 fraction digits (NUMERIC(38,18) in SQL). */
export const PRICE_DECIMALS = 18

/** The band an ETH price must fall in, in USD: what lies outside is a typo or a broken feed. */
export const ETH_PRICE_BOUNDS = { min: '0.01', max: '10000000' } as const

/**
 * Whether `value` is an ETH price the app accepts: a plain positive decimal with at most 18
 * fraction digits, within ETH_PRICE_BOUNDS.
 * @example isEthPrice('3120.55') // true
 * @example isEthPrice('1e3') // false
 */
export function isEthPrice(value: string): boolean {
  const units = parseAmount(value, PRICE_DECIMALS)
  if (units === null) return false
  const min = parseAmount(ETH_PRICE_BOUNDS.min, PRICE_DECIMALS)!
  const max = parseAmount(ETH_PRICE_BOUNDS.max, PRICE_DECIMALS)!
  return units >= min && units <= max
}

/** `main/priceHistory`: one symbol's chart over a range. */
export const PriceHistoryParams = z.object({
  symbol: z.enum(PRICE_SYMBOLS),
  range: z.enum(PRICE_RANGES).default('24h'),
})
export type PriceHistoryParams = z.input<typeof PriceHistoryParams>

/** One point of a price chart: `t` in Unix seconds, the price as a decimal string. */
export interface PricePoint {
  t: number
  price: string
}

/**
 * A symbol's current price, its change over the last 24 hours and the chart of a range,
 * oldest point first, the last point being the current price.
 */
export interface PriceHistory {
  symbol: PriceSymbol
  range: PriceRange
  price: string
  /** The price 24 hours ago (the earliest known within the day when there is none before). */
  open24h: string | null
  /** Change against open24h in percent, two decimals, e.g. '5.26', '-3.10'; null without history. */
  change24h: string | null
  points: PricePoint[]
}

/** `admin/setEthPrice`: the operator-set ETH price in USD, recorded with its history. */
export const SetEthPriceParams = z.object({
  price: z
    .string({ error: 'price_invalid' })
    .trim()
    .refine((v) => isEthPrice(v), 'price_invalid'),
  reason: z.string().trim().min(1).max(200).optional(),
})
export type SetEthPriceParams = z.input<typeof SetEthPriceParams>

export interface EthPriceChange {
  price: string
  previous: string | null
  /** ISO time the price took effect */
  at: string
}
