import {
  PRICE_DECIMALS,
  isEthPrice,
  parseAmount,
  trimDecimal,
  type PricePoint,
  type PriceRange,
} from '@hope/api'

export const HOUR_MS = 3_600_000
export const DAY_MS = 24 * HOUR_MS

/** How far back each chart range reaches. */
export const RANGE_MS: Record<PriceRange, number> = {
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
}

/** A chart keeps the last price of each bucket: about 300 points whatever the range. */
export const BUCKET_SECONDS: Record<PriceRange, number> = {
  '24h': 300,
  '7d': 1_800,
  '30d': 7_200,
}

/** A stored price: `at` in milliseconds since the epoch. */
export interface PriceRow {
  at: number
  price: string
}

const units = (price: string): bigint => {
  const v = parseAmount(trimDecimal(price), PRICE_DECIMALS)
  if (v === null) throw new Error(`not a price: ${price}`)
  return v
}

/** Whether two decimal price strings are the same number ('3000' and '3000.000'). */
export const samePrice = (a: string, b: string): boolean => units(a) === units(b)

/**
 * The change from `open` to `current` in percent, rounded half away from zero to two
 * decimals, computed on 18-decimal integers (no float on the way).
 * @example changePercent('100', '105.255') // '5.26'
 * @example changePercent('3000', '2907') // '-3.10'
 */
export function changePercent(open: string, current: string): string {
  const o = units(open)
  if (o <= 0n) throw new Error('the open price must be positive')
  const scaled = (units(current) - o) * 10_000n // percent × 100
  const negative = scaled < 0n
  const abs = negative ? -scaled : scaled
  let hundredths = abs / o
  if ((abs % o) * 2n >= o) hundredths += 1n
  const digits = hundredths.toString().padStart(3, '0')
  const text = `${digits.slice(0, -2)}.${digits.slice(-2)}`
  return negative && hundredths > 0n ? `-${text}` : text
}

/**
 * The price a day's change is measured from: the last one at or before the start of the day
 * window, or, for a symbol younger than a day, the first one within it.
 */
export function openPrice(
  atOrBefore: PriceRow | null,
  firstWithin: PriceRow | null,
): string | null {
  return atOrBefore?.price ?? firstWithin?.price ?? null
}

/**
 * The chart of a range from `from` to `now` (milliseconds): the price in force at `from` (when
 * known), each stored row after it (oldest first), and the current price at `now`. Times are
 * whole seconds, strictly rising: of two points in the same second the later one stays.
 */
export function buildSeries(input: {
  anchor: PriceRow | null
  rows: PriceRow[]
  from: number
  now: number
  current: string
}): PricePoint[] {
  const out: PricePoint[] = []
  const add = (atMs: number, price: string) => {
    const t = Math.floor(atMs / 1000)
    const last = out[out.length - 1]
    const point = { t, price: trimDecimal(price) }
    if (!last || t > last.t) out.push(point)
    else if (t === last.t) out[out.length - 1] = point
  }
  if (input.anchor) add(input.from, input.anchor.price)
  const rows = [...input.rows]
    .filter((r) => r.at > input.from && r.at <= input.now)
    .sort((a, b) => a.at - b.at)
  for (const row of rows) add(row.at, row.price)
  add(input.now, input.current)
  return out
}

/**
 * What the sampler records for a symbol whose price is now `current`: a row when the price
 * changed since the last one (or there is none yet), an hourly sample when it did not, or
 * nothing.
 */
export function sampleDue(
  last: PriceRow | null,
  current: string,
  now: number,
  everyMs = HOUR_MS,
): 'change' | 'sample' | null {
  if (!last || !samePrice(last.price, current)) return 'change'
  if (now - last.at >= everyMs) return 'sample'
  return null
}

/**
 * The ETH price in a feed's JSON answer at a dotted path ('ethereum.usd', 'data.0.price'):
 * a decimal string or a plain number within the accepted band, else null.
 * @example readFeedPrice({ ethereum: { usd: 3120.5 } }, 'ethereum.usd') // '3120.5'
 */
export function readFeedPrice(body: unknown, path: string): string | null {
  let value: unknown = body
  for (const key of path.split('.').filter(Boolean)) {
    if (value === null || typeof value !== 'object') return null
    value = (value as Record<string, unknown>)[key]
  }
  let text: string
  if (typeof value === 'number' && Number.isFinite(value)) text = String(value)
  else if (typeof value === 'string') text = value.trim()
  else return null
  if (!isEthPrice(text)) return null
  return trimDecimal(text)
}
