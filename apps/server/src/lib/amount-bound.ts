import { CURRENCY_DECIMALS, parseAmount, type Currency } from '@hope/api'
import type { Settings } from '../modules/settings/settings.rules.ts'
import { AppError } from './app-error.ts'

/** The operators' bound on one request's amount in `currency`, in minor units. */
export function amountBound(
  s: Pick<Settings, 'maxAmountUsdt' | 'maxAmountHope'>,
  currency: Currency,
) {
  const text = currency === 'USDT' ? s.maxAmountUsdt : s.maxAmountHope
  return { text, units: parseAmount(text, CURRENCY_DECIMALS[currency])! }
}

/**
 * Refuses an amount (minor units of `currency`) past the operators' bound with
 * `amount_too_large`, before any work that grows with the amount.
 */
export function assertAmountWithinBound(
  s: Pick<Settings, 'maxAmountUsdt' | 'maxAmountHope'>,
  currency: Currency,
  units: bigint,
): void {
  const bound = amountBound(s, currency)
  if (units > bound.units) throw new AppError('amount_too_large', { detail: bound.text })
}
