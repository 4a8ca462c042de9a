import { formatAmount } from '@hope/api'
import { feeFor, type FeeTerms } from '../format/fee.ts'
import { toUnits } from '../format/money-input.ts'

/**
 * `amount` and its fee against what the account holds: what is missing when amount + fee is
 * more than `available`, else the amount, fee and total as decimal strings (as sent and shown).
 * @example quoteWithFee(100_000000n, { decimals: 6, fixed: '1', rate: '0' }, '50') // { problem: 'insufficient', shortfall: '51' }
 */
export function quoteWithFee(
  amount: bigint,
  terms: FeeTerms,
  available: string,
): { problem: 'insufficient'; shortfall: string } | { amount: string; fee: string; total: string } {
  const fee = feeFor(amount, terms)
  const show = (units: bigint) => formatAmount(units, terms.decimals)
  const short = amount + fee - toUnits(available, terms.decimals)
  if (short > 0n) return { problem: 'insufficient', shortfall: show(short) }
  return { amount: show(amount), fee: show(fee), total: show(amount + fee) }
}
