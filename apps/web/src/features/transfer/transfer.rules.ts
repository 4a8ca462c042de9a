import { formatAmount, parseAmount, trimDecimal, type EnabledCoin } from '@hope/api'

/** Integer digits an amount may have (the contract's parseAmount allows 20). */
const MAX_INTEGER_DIGITS = 20
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

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

/** A fee rate such as '0.01' as an integer over a power of ten (the server's settings). */
function parseRate(text: string): { rate: bigint; scale: bigint } {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(trimDecimal(text.trim()))
  if (!match) return { rate: 0n, scale: 1n }
  const [, whole = '0', fraction = ''] = match
  return { rate: BigInt(whole + fraction), scale: 10n ** BigInt(fraction.length) }
}

export type FeeSchedule = Pick<EnabledCoin, 'decimals' | 'transferFeeFixed' | 'transferFeeRate'>

/**
 * The transfer fee in minor units: fixed + amount × rate, the proportional part rounded up
 * to the smallest unit (as the server charges it).
 * @example transferFee(100_000000n, { decimals: 6, transferFeeFixed: '1', transferFeeRate: '0.01' }) // 2_000000n
 */
export function transferFee(amount: bigint, coin: FeeSchedule): bigint {
  const { rate, scale } = parseRate(coin.transferFeeRate)
  return toUnits(coin.transferFeeFixed, coin.decimals) + (amount * rate + scale - 1n) / scale
}

/** The most that can be sent so that amount + fee stays within `available` (the "all" button). */
export function maxTransferable(available: bigint, coin: FeeSchedule): bigint {
  const fixed = toUnits(coin.transferFeeFixed, coin.decimals)
  if (available <= fixed) return 0n
  const { rate, scale } = parseRate(coin.transferFeeRate)
  // amount × (1 + rate) ≤ available − fixed, then step down past the fee's rounding.
  let amount = ((available - fixed) * scale) / (scale + rate)
  while (amount > 0n && amount + transferFee(amount, coin) > available) amount -= 1n
  return amount
}

export type TransferProblem =
  | 'addressRequired'
  | 'addressInvalid'
  | 'amountRequired'
  | 'amountInvalid'
  | 'amountTooSmall'
  | 'insufficient'

export interface TransferQuote {
  address: string
  /** Decimal strings, as sent and shown. */
  amount: string
  fee: string
  total: string
}

/**
 * The checks made before any request, in the order of the form (spec §5 messages): the
 * first problem found, or the quote to confirm.
 */
export function checkTransfer(
  form: { address: string; amount: string },
  ctx: { coin: EnabledCoin; available: string },
): { problem: TransferProblem } | { quote: TransferQuote } {
  const address = form.address.trim()
  const { coin } = ctx
  if (!address) return { problem: 'addressRequired' }
  if (!ADDRESS.test(address)) return { problem: 'addressInvalid' }
  // A trailing '.' left from typing means the whole number.
  const typed = form.amount.trim().replace(/\.$/, '')
  if (!typed) return { problem: 'amountRequired' }
  const amount = parseAmount(typed, coin.decimals)
  if (amount === null || amount <= 0n) return { problem: 'amountInvalid' }
  if (amount < toUnits(coin.minTransfer, coin.decimals)) return { problem: 'amountTooSmall' }
  const fee = transferFee(amount, coin)
  if (amount + fee > toUnits(ctx.available, coin.decimals)) return { problem: 'insufficient' }
  const show = (units: bigint) => formatAmount(units, coin.decimals)
  return { quote: { address, amount: show(amount), fee: show(fee), total: show(amount + fee) } }
}

/**
 * A fresh idempotency key (32 hex characters, within the contract's 8–64 [A-Za-z0-9_-]).
 */
export function newIdempotencyKey(): string {
  return crypto.randomUUID().replaceAll('-', '')
}
