import { formatAmount, type Lang } from '@hope/api'
import { SEPARATORS } from '../format/format.ts'

/** Integer digits an amount may have (the contract's parseAmount allows 20). */
const MAX_INTEGER_DIGITS = 20

/**
 * The most decimals any amount field takes, whatever the currency keeps (HOPE keeps 18): one
 * rule for every form, and what the field's message says.
 */
export const TYPED_DECIMALS = 6

/** The decimals a field for a currency with `decimals` takes. @example typedDecimals(18) // 6 */
export const typedDecimals = (decimals: number): number => Math.min(decimals, TYPED_DECIMALS)

/** Why typed text is not an amount; each has its sentence under `money:flow.amount.*`. */
export type AmountProblem =
  | 'negative'
  | 'exponent'
  | 'notANumber'
  | 'twoDecimalSeparators'
  | 'misplacedGrouping'
  | 'tooManyDecimals'
  | 'tooLarge'
  | 'zero'

export type ReadAmount = { empty: true } | { units: bigint } | { problem: AmountProblem }

const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Reads what the user typed as an amount in the language's own way of writing numbers
 * (English 1,000.5, Vietnamese 1.000,5). Refuses rather than guesses: a minus sign, an exponent,
 * a second decimal separator, grouping that is not by threes, more decimals than the field takes
 * (`typedDecimals`). A trailing decimal separator left from typing means the whole number.
 * @example readAmount('1,000', 6, 'en') // { units: 1_000_000000n }
 * @example readAmount('1,000', 6, 'vi') // { units: 1_000000n }
 * @example readAmount('-5', 6, 'en') // { problem: 'negative' }
 */
export function readAmount(text: string, decimals: number, lang: Lang): ReadAmount {
  const typed = text.trim()
  if (!typed) return { empty: true }
  if (/[-−–]/.test(typed)) return { problem: 'negative' }
  if (/[eE]/.test(typed)) return { problem: 'exponent' }
  const { group, decimal } = SEPARATORS[lang]
  if (!new RegExp(`^[\\d${escape(group)}${escape(decimal)}]+$`).test(typed))
    return { problem: 'notANumber' }
  const parts = typed.split(decimal)
  if (parts.length > 2) return { problem: 'twoDecimalSeparators' }
  const [whole = '', fraction = ''] = parts
  const groups = whole.split(group)
  const grouped =
    groups.length === 1 ||
    (/^\d{1,3}$/.test(groups[0] ?? '') && groups.slice(1).every((g) => /^\d{3}$/.test(g)))
  if (!grouped || fraction.includes(group)) return { problem: 'misplacedGrouping' }
  if (fraction.length > typedDecimals(decimals)) return { problem: 'tooManyDecimals' }
  const digits = groups.join('').replace(/^0+(?=\d)/, '')
  if (digits.length > MAX_INTEGER_DIGITS) return { problem: 'tooLarge' }
  const units = BigInt((digits || '0') + fraction.padEnd(decimals, '0'))
  return units === 0n ? { problem: 'zero' } : { units }
}

/**
 * Minor units written as the language writes numbers, without grouping, cut (never rounded up)
 * to the decimals a field takes (so that the field the "all" button fills reads back to an
 * amount in every language, never more than there is).
 * @example writeAmount(1_000_500000n, 6, 'vi') // '1000,5'
 */
export function writeAmount(units: bigint, decimals: number, lang: Lang): string {
  const step = 10n ** BigInt(decimals - typedDecimals(decimals))
  const text = formatAmount(units - (units % step), decimals)
  return text.replace('.', SEPARATORS[lang].decimal)
}
