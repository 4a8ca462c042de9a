import { z } from 'zod'

/** Decimals per currency as held in the ledger (DESIGN §4). */
export const CURRENCY_DECIMALS = { USDT: 6, HOPE: 18 } as const
export type Currency = keyof typeof CURRENCY_DECIMALS

const MAX_INTEGER_DIGITS = 20

/**
 * Parses a decimal string into minor units, or null when it is not a plain non-negative
 * decimal with at most `decimals` fraction digits.
 * @example parseAmount('12.5', 6) // 12500000n
 */
export function parseAmount(value: string, decimals: number): bigint | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value.trim())
  if (!match) return null
  const [, whole = '', frac = ''] = match
  if (frac.length > decimals) return null
  if (whole.replace(/^0+/, '').length > MAX_INTEGER_DIGITS) return null
  return BigInt(whole + frac.padEnd(decimals, '0'))
}

/**
 * Formats minor units as a decimal string without trailing zeros.
 * @example formatAmount(12500000n, 6) // '12.5'
 */
export function formatAmount(units: bigint, decimals: number): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`
}

/**
 * The largest amount any request may carry, in whole units of any currency: a hard ceiling
 * under the operators' per-currency bound (settings `maxAmountUsdt`, `maxAmountHope`, at most
 * this), far inside what the ledger's columns hold, so no sum of requests can overflow them.
 */
export const AMOUNT_CEILING = 10n ** 15n

/** The hard ceiling in a currency's minor units. */
export const amountCeilingUnits = (currency: Currency): bigint =>
  AMOUNT_CEILING * 10n ** BigInt(CURRENCY_DECIMALS[currency])

/**
 * A positive amount of the currency as a decimal string on the wire: missing or empty is
 * `required`; negative, zero, NaN, exponent or too many decimals is `invalid`; past
 * `AMOUNT_CEILING` is `amount_too_large` (the messages are error reasons the server answers
 * with). Checked in constant time: the digits are counted before any arithmetic.
 * @example positiveAmount('USDT').parse('12.5') // '12.5'
 */
export const positiveAmount = (
  currency: Currency,
  reasons: { required: string; invalid: string } = {
    required: 'amount_required',
    invalid: 'amount_invalid',
  },
) =>
  z
    .string({ error: reasons.required })
    .trim()
    .min(1, reasons.required)
    .superRefine((v, ctx) => {
      const units = parseAmount(v, CURRENCY_DECIMALS[currency])
      if (units === null || units <= 0n) ctx.addIssue({ code: 'custom', message: reasons.invalid })
      else if (units > amountCeilingUnits(currency))
        ctx.addIssue({ code: 'custom', message: 'amount_too_large' })
    })

/** A positive amount with the generic reasons; see `positiveAmount`. */
export const amountOf = (currency: Currency) => positiveAmount(currency)

/**
 * Drops trailing fraction zeros, as PostgreSQL NUMERIC(38,18) text carries them.
 * @example trimDecimal('12.500000000000000000') // '12.5'
 */
export function trimDecimal(value: string): string {
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value
}
