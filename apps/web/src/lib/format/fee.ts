import { trimDecimal } from '@hope/api'
import { toUnits } from './money-input.ts'

/** A fee as the server's settings give it: a fixed part and a rate, in a currency's decimals. */
export interface FeeTerms {
  decimals: number
  /** Decimal string, e.g. '1'. */
  fixed: string
  /** Decimal string, e.g. '0.01' for 1 %. */
  rate: string
}

/**
 * A rate such as '0.01' as an integer over a power of ten (the server's settings), so that
 * amount × rate is exact in bigint units; anything that is not a plain decimal is 0.
 * @example parseRate('0.050000') // { rate: 5n, scale: 100n }
 */
export function parseRate(text: string): { rate: bigint; scale: bigint } {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(trimDecimal(text.trim()))
  if (!match) return { rate: 0n, scale: 1n }
  const [, whole = '0', fraction = ''] = match
  return { rate: BigInt(whole + fraction), scale: 10n ** BigInt(fraction.length) }
}

/**
 * The fee in minor units: fixed + amount × rate, the proportional part rounded up to the
 * smallest unit (as the server charges it).
 * @example feeFor(100_000000n, { decimals: 6, fixed: '1', rate: '0.01' }) // 2_000000n
 */
export function feeFor(amount: bigint, terms: FeeTerms): bigint {
  const { rate, scale } = parseRate(terms.rate)
  return toUnits(terms.fixed, terms.decimals) + (amount * rate + scale - 1n) / scale
}

/** The most that can be spent so that amount + fee stays within `available` (an "all" button). */
export function maxBeforeFee(available: bigint, terms: FeeTerms): bigint {
  const fixed = toUnits(terms.fixed, terms.decimals)
  if (available <= fixed) return 0n
  const { rate, scale } = parseRate(terms.rate)
  // amount × (1 + rate) ≤ available − fixed, then step down past the fee's rounding.
  let amount = ((available - fixed) * scale) / (scale + rate)
  while (amount > 0n && amount + feeFor(amount, terms) > available) amount -= 1n
  return amount
}
