import { formatAmount, parseAmount, trimDecimal, type LogType } from '@hope/api'

// The account figures of spec §3 (packages/api account-figures.ts), in the ledger's words:
//
// - rate of return (percent): the USDT value released by the user's consensus positions
//   divided by the USDT principal of those positions; none while the principal is 0.
// - trading volume (USDT): the USDT the user exchanged against HOPE, that is the absolute
//   amounts of the posted lines of the user's USDT account whose log type is a consensus entry
//   (16), a purchase paid (15: upgrades, nodes, activations, all through the sale) or a
//   redemption's proceeds (2).
// - total transaction volume (USDT): the absolute amounts of every posted line of the user's
//   USDT account, whatever its log type.
//
// Volumes are running totals: the volume job adds each batch of lines to them once.

/** Log types whose USDT lines are trades against HOPE. */
export const TRADING_LOG_TYPES: ReadonlySet<LogType> = new Set<LogType>([2, 15, 16])

/** Amounts are kept at the ledger's scale, 18 decimals, so no line is ever rounded. */
const SCALE = 18
const units = (v: string): bigint => parseAmount(trimDecimal(v.replace(/^-/, '')), SCALE)!

/** One posted line of a user's USDT account, as the ledger holds it (amount signed). */
export interface VolumeLine {
  userId: number
  amount: string
  logType: number
}

/** A user's volumes in 18-decimal units. */
export interface Volumes {
  trading: bigint
  total: bigint
}

/**
 * The volumes after `lines`: each line's absolute amount added to its user's total, and to the
 * trading volume when its log type is a trade. Returns a new map, `totals` is left as it is;
 * adding lines batch by batch gives what one pass over all of them gives.
 * @example addLines(new Map(), [{ userId: 7, amount: '-100', logType: 16 }]) // 7 → { trading: 100e18, total: 100e18 }
 */
export function addLines(
  totals: ReadonlyMap<number, Volumes>,
  lines: readonly VolumeLine[],
): Map<number, Volumes> {
  const out = new Map(totals)
  for (const line of lines) {
    const amount = units(line.amount)
    const before = out.get(line.userId) ?? { trading: 0n, total: 0n }
    out.set(line.userId, {
      trading: before.trading + (TRADING_LOG_TYPES.has(line.logType as LogType) ? amount : 0n),
      total: before.total + amount,
    })
  }
  return out
}

/** An amount of `Volumes` as the decimal string the database and the API take. */
export const formatVolume = (u: bigint): string => formatAmount(u, SCALE)

/**
 * Rate of return in percent, rounded down to two decimals: released ÷ principal × 100 of the
 * user's consensus positions (USDT decimal strings). Null while the principal is 0.
 * @example rateOfReturn('1000', '125') // '12.5'
 * @example rateOfReturn('0', '0') // null
 */
export function rateOfReturn(principal: string, released: string): string | null {
  const p = units(principal)
  if (p === 0n) return null
  return formatAmount((units(released) * 100n * 100n) / p, 2)
}
