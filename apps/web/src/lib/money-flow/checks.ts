import { CURRENCY_DECIMALS, formatAmount } from '@hope/api'
import { toUnits } from '../format/money-input.ts'

/**
 * The USDT missing to pay `price` out of `available`, '0' when nothing is missing.
 * @example shortfallOf('500', '5000') // '4500'
 */
export function shortfallOf(available: string, price: string): string {
  const d = CURRENCY_DECIMALS.USDT
  const missing = toUnits(price, d) - toUnits(available, d)
  return formatAmount(missing > 0n ? missing : 0n, d)
}

/** What a screen's rules answer for the form as it stands. */
export type Checked<Problem extends string, Quote> =
  { problem: Problem; shortfall?: string } | { quote: Quote }

/**
 * What the form shows of its rules' answer while the user types: the problem to say now (not
 * one of `quiet`, such as an empty field, which the button says; nothing while the field says
 * why the text is no amount), what is missing, and the quote estimates come from: only one
 * the rules accept, so that no estimate is shown for an amount that cannot be sent.
 * @example liveOf({ problem: 'insufficient', shortfall: '50' }, false, []) // { live: 'insufficient', shortfall: '50', quote: null }
 */
export function liveOf<Problem extends string, Quote>(
  check: Checked<Problem, Quote>,
  fieldRefused: boolean,
  quiet: readonly Problem[],
): { live: Problem | null; shortfall: string | null; quote: Quote | null } {
  if (fieldRefused) return { live: null, shortfall: null, quote: null }
  if ('quote' in check) return { live: null, shortfall: null, quote: check.quote }
  return {
    live: quiet.includes(check.problem) ? null : check.problem,
    shortfall: check.shortfall ?? null,
    quote: null,
  }
}
