import type { EnabledCoin } from '@hope/api'
import type { FeeTerms } from '../../lib/format/fee.ts'
import { quoteWithFee } from '../../lib/money-flow/quote.ts'
import { isEvmAddress, readTypedAmount, toUnits } from '../../lib/format/money-input.ts'

export type FeeSchedule = Pick<EnabledCoin, 'decimals' | 'transferFeeFixed' | 'transferFeeRate'>

/**
 * The transfer fee's terms in the operators' coin settings: fixed + amount × rate, the
 * proportional part rounded up to the smallest unit (as the server charges it). With
 * `feeFor` they give the fee, with `maxBeforeFee` the most that can be sent (the "all" button).
 */
export const transferTerms = (coin: FeeSchedule): FeeTerms => ({
  decimals: coin.decimals,
  fixed: coin.transferFeeFixed,
  rate: coin.transferFeeRate,
})

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
 * first problem found (over the balance, with what is missing), or the quote to confirm.
 */
export function checkTransfer(
  form: { address: string; amount: string },
  ctx: { coin: EnabledCoin; available: string },
): { problem: TransferProblem; shortfall?: string } | { quote: TransferQuote } {
  const address = form.address.trim()
  const { coin } = ctx
  if (!address) return { problem: 'addressRequired' }
  if (!isEvmAddress(address)) return { problem: 'addressInvalid' }
  const typed = readTypedAmount(form.amount, coin.decimals)
  if ('problem' in typed) return typed
  if (typed.units < toUnits(coin.minTransfer, coin.decimals)) return { problem: 'amountTooSmall' }
  const paid = quoteWithFee(typed.units, transferTerms(coin), ctx.available)
  return 'problem' in paid ? paid : { quote: { address, ...paid } }
}
