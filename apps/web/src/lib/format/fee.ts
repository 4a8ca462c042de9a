import { trimDecimal } from '@hope/api'
import {
  feeFor as chargeFor,
  maxBeforeFee as spendable,
  parseRate as exactRate,
  type Rate,
} from '@hope/api/money-rules'
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
 * A rate such as '0.01' from the server's settings as an exact fraction (the shared rule's);
 * anything that is not a plain decimal is 0, so a screen never breaks on a setting.
 * @example parseRate('0.050000') // { rate: 50000n, scale: 1000000n }
 */
export function parseRate(text: string): Rate {
  return exactRate(trimDecimal(text.trim())) ?? { rate: 0n, scale: 1n }
}

/**
 * The fee in minor units, as the server charges it (the rule in `@hope/api`): fixed + amount ×
 * rate, the proportional part rounded up to the smallest unit.
 * @example feeFor(100_000000n, { decimals: 6, fixed: '1', rate: '0.01' }) // 2_000000n
 */
export function feeFor(amount: bigint, terms: FeeTerms): bigint {
  return chargeFor(amount, {
    fixed: toUnits(terms.fixed, terms.decimals),
    rate: parseRate(terms.rate),
  })
}

/** The most that can be spent so that amount + fee stays within `available` (an "all" button). */
export function maxBeforeFee(available: bigint, terms: FeeTerms): bigint {
  return spendable(available, {
    fixed: toUnits(terms.fixed, terms.decimals),
    rate: parseRate(terms.rate),
  })
}
