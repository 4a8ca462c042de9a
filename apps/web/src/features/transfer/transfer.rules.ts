import { formatAmount, parseAmount, type EnabledCoin } from '@hope/api'
import { feeFor, maxBeforeFee, type FeeTerms } from '../../lib/format/fee.ts'
import { isEvmAddress, toUnits } from '../../lib/format/money-input.ts'

export type FeeSchedule = Pick<EnabledCoin, 'decimals' | 'transferFeeFixed' | 'transferFeeRate'>

const transferTerms = (coin: FeeSchedule): FeeTerms => ({
  decimals: coin.decimals,
  fixed: coin.transferFeeFixed,
  rate: coin.transferFeeRate,
})

/**
 * The transfer fee in minor units: fixed + amount × rate, the proportional part rounded up
 * to the smallest unit (as the server charges it).
 * @example transferFee(100_000000n, { decimals: 6, transferFeeFixed: '1', transferFeeRate: '0.01' }) // 2_000000n
 */
export function transferFee(amount: bigint, coin: FeeSchedule): bigint {
  return feeFor(amount, transferTerms(coin))
}

/** The most that can be sent so that amount + fee stays within `available` (the "all" button). */
export function maxTransferable(available: bigint, coin: FeeSchedule): bigint {
  return maxBeforeFee(available, transferTerms(coin))
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
  // A trailing '.' left from typing means the whole number.
  const typed = form.amount.trim().replace(/\.$/, '')
  if (!typed) return { problem: 'amountRequired' }
  const amount = parseAmount(typed, coin.decimals)
  if (amount === null || amount <= 0n) return { problem: 'amountInvalid' }
  if (amount < toUnits(coin.minTransfer, coin.decimals)) return { problem: 'amountTooSmall' }
  const fee = transferFee(amount, coin)
  const show = (units: bigint) => formatAmount(units, coin.decimals)
  const short = amount + fee - toUnits(ctx.available, coin.decimals)
  if (short > 0n) return { problem: 'insufficient', shortfall: show(short) }
  return { quote: { address, amount: show(amount), fee: show(fee), total: show(amount + fee) } }
}
