import { CURRENCY_DECIMALS, formatAmount } from '@hope/api'
import { toUnits } from '../money-input.ts'

/**
 * The USDT missing to pay `price` out of `available`, '0' when nothing is missing.
 * @example shortfallOf('500', '5000') // '4500'
 */
export function shortfallOf(available: string, price: string): string {
  const d = CURRENCY_DECIMALS.USDT
  const missing = toUnits(price, d) - toUnits(available, d)
  return formatAmount(missing > 0n ? missing : 0n, d)
}
