// The money rules the app shows and the server charges, written once: the fee on a movement,
// HOPE bought for USDT and back, and a redemption's split. Pure functions over integer units
// (USDT 6 decimals, HOPE 18); every division rounds down except a fee, which rounds up, so the
// platform never charges less or pays more than a rule allows.

import { parseRate, type Rate } from './rate.ts'

export { parseRate, type Rate }

/** One HOPE in its 18-decimal units. */
export const HOPE_UNIT = 10n ** 18n

const rateOf = (rate: string | Rate): Rate => {
  if (typeof rate !== 'string') return rate
  const parsed = parseRate(rate)
  if (!parsed) throw new RangeError(`not a rate: ${rate}`)
  return parsed
}

/** Floor of units × rate. */
export const timesRate = (units: bigint, rate: string | Rate): bigint => {
  const r = rateOf(rate)
  return (units * r.rate) / r.scale
}

/** Ceiling of units × rate: what a fee charges. */
export const timesRateUp = (units: bigint, rate: string | Rate): bigint => {
  const r = rateOf(rate)
  return (units * r.rate + r.scale - 1n) / r.scale
}

/**
 * A fee of `fixed + amount × rate`, the proportional part rounded up to the currency's smallest
 * unit so the platform never under-charges by a rounding.
 * @example feeFor(100_000_000n, { fixed: 1_000_000n, rate: '0.01' }) // 2_000_000n
 */
export function feeFor(amount: bigint, schedule: { fixed: bigint; rate: string | Rate }): bigint {
  return schedule.fixed + timesRateUp(amount, schedule.rate)
}

/**
 * The most that can be spent so that amount + fee stays within `available` (an "all" button).
 * @example maxBeforeFee(102_000_000n, { fixed: 1_000_000n, rate: '0.01' }) // 100_000_000n
 */
export function maxBeforeFee(
  available: bigint,
  schedule: { fixed: bigint; rate: string | Rate },
): bigint {
  if (available <= schedule.fixed) return 0n
  const r = rateOf(schedule.rate)
  // amount × (1 + rate) ≤ available − fixed, then step down past the fee's rounding (at most a
  // unit or two).
  let amount = ((available - schedule.fixed) * r.scale) / (r.scale + r.rate)
  while (amount > 0n && amount + feeFor(amount, { fixed: schedule.fixed, rate: r }) > available)
    amount -= 1n
  return amount
}

/**
 * The HOPE units a USDT amount buys at a price (USDT units per HOPE), rounded down; 0 at no
 * price.
 * @example hopeFor(100_000000n, 100000n) // 1000n * 10n ** 18n
 */
export const hopeFor = (usdt: bigint, price: bigint): bigint =>
  price > 0n ? (usdt * HOPE_UNIT) / price : 0n

/**
 * The USDT units HOPE is worth at a price, rounded down.
 * @example usdtFor(10n ** 18n, 100000n) // 100000n
 */
export const usdtFor = (hope: bigint, price: bigint): bigint => (hope * price) / HOPE_UNIT

export interface RedemptionSplit {
  /** HOPE units redeemed into USDT, and pledged (released later). */
  redeemed: bigint
  pledged: bigint
  /** USDT units: the redeemed part at the price, the fee on it, and what reaches the account. */
  gross: bigint
  fee: bigint
  net: bigint
}

/**
 * Redeeming `hope` community HOPE units at `price`: redeemed = hope × redeemShare rounded down,
 * pledged = the rest; gross = redeemed × price rounded down; fee = gross × feeRate rounded up,
 * never more than gross; net = gross − fee. So redeemed + pledged = hope, net + fee = gross.
 * @example redemptionSplit(100n * 10n ** 18n, 100000n, { redeemShare: '0.8', feeRate: '0.05' })
 * // { redeemed: 80 HOPE, pledged: 20 HOPE, gross: 8 USDT, fee: 0.4 USDT, net: 7.6 USDT }
 */
export function redemptionSplit(
  hope: bigint,
  price: bigint,
  terms: { redeemShare: string | Rate; feeRate: string | Rate },
): RedemptionSplit {
  const redeemed = timesRate(hope, terms.redeemShare)
  const pledged = hope - redeemed
  const gross = usdtFor(redeemed, price)
  const fee = timesRateUp(gross, terms.feeRate)
  const charged = fee > gross ? gross : fee
  return { redeemed, pledged, gross, fee: charged, net: gross - charged }
}
