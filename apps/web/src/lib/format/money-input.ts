/** What the user types into the money forms: amounts in a currency's units, and addresses. */
import { parseAmount } from '@hope/api'

/** Integer digits an amount may have (the contract's parseAmount allows 20). */
const MAX_INTEGER_DIGITS = 20

/**
 * Filters what the user types into an amount field: digits and at most one decimal point with
 * at most `decimals` digits after it. Returns the text to show (a leading '.' becomes '0.',
 * a comma from a localised keypad becomes '.', leading zeros collapse), or null to refuse the
 * keystroke. A trailing '.' is allowed while typing.
 * @example acceptAmountInput('12.5', 6) // '12.5'
 * @example acceptAmountInput('1e5', 6) // null
 */
export function acceptAmountInput(text: string, decimals: number): string | null {
  let next = text.trim()
  if (!next.includes('.') && next.split(',').length === 2) next = next.replace(',', '.')
  const match = /^(\d*)(?:\.(\d*))?$/.exec(next)
  if (!match) return null
  const [, rawWhole = '', fraction] = match
  if (fraction !== undefined && (fraction.length > decimals || decimals === 0)) return null
  const whole = rawWhole.replace(/^0+(?=\d)/, '')
  if (whole.length > MAX_INTEGER_DIGITS) return null
  if (fraction === undefined) return whole
  return `${whole || '0'}.${fraction}`
}

/**
 * A decimal string from the server in minor units, cut (never rounded up) to `decimals`:
 * an available balance must not grow by formatting.
 * @example toUnits('12.3456789', 6) // 12345678n
 */
export function toUnits(value: string, decimals: number): bigint {
  const [whole = '', fraction = ''] = value.trim().split('.')
  const kept = fraction.slice(0, decimals)
  return parseAmount(kept ? `${whole}.${kept}` : whole, decimals) ?? 0n
}

export type TypedAmount = { units: bigint } | { problem: 'amountRequired' | 'amountInvalid' }

/**
 * What the user typed into an amount field, read for sending: empty is `amountRequired`, zero
 * or anything that is not a decimal of the currency is `amountInvalid`. A trailing '.' left
 * from typing means the whole number.
 * @example readTypedAmount('12.', 6) // { units: 12000000n }
 */
export function readTypedAmount(text: string, decimals: number): TypedAmount {
  const typed = text.trim().replace(/\.$/, '')
  if (!typed) return { problem: 'amountRequired' }
  const units = parseAmount(typed, decimals)
  if (units === null || units <= 0n) return { problem: 'amountInvalid' }
  return { units }
}

/** An EVM address as the contract takes it: 0x and 40 hex digits (any case). */
export function isEvmAddress(text: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(text)
}
