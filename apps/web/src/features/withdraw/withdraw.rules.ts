import {
  CURRENCY_DECIMALS,
  formatAmount,
  type EnabledCoin,
  type Withdrawal,
  type WithdrawalStatusCode,
} from '@hope/api'
import type { FeeTerms } from '../../lib/format/fee.ts'
import { quoteWithFee } from '../../lib/money-flow/quote.ts'
import { isEvmAddress, readTypedAmount, toUnits } from '../../lib/format/money-input.ts'
import type { Tone } from '../../lib/ui/status-tag.tsx'

export const USDT_DECIMALS = CURRENCY_DECIMALS.USDT

/** The withdrawal terms of `userAccount/enableCoins` (operators' settings). */
export type WithdrawTerms = Pick<
  EnabledCoin,
  'decimals' | 'minWithdraw' | 'withdrawFeeFixed' | 'withdrawFeeRate'
>

/**
 * The withdrawal fee's terms, charged on top of the amount (as the server reserves it). With
 * `feeFor` they give the fee, with `maxBeforeFee` the most that can be withdrawn (the "all" button).
 */
export const withdrawTerms = (terms: WithdrawTerms): FeeTerms => ({
  decimals: terms.decimals,
  fixed: terms.withdrawFeeFixed,
  rate: terms.withdrawFeeRate,
})

export type WithdrawProblem =
  | 'amountRequired'
  | 'amountInvalid'
  | 'amountBelowMinimum'
  | 'insufficient'
  | 'addressRequired'
  | 'addressInvalid'

export interface WithdrawQuote {
  /** Decimal strings, as sent and shown. */
  amount: string
  fee: string
  total: string
  address: string
}

/**
 * The checks made before any request, in the order of the form (spec §5 messages): "Please
 * enter the amount of cash withdrawal", a valid amount, "The withdrawal amount cannot be less
 * than the minimum withdrawal amount", amount + fee within the available USDT, then the
 * address ("Please enter the address"). The first problem found, or the quote to confirm.
 */
export function checkWithdraw(
  form: { amount: string; address: string },
  ctx: { terms: WithdrawTerms; available: string },
): { problem: WithdrawProblem; shortfall?: string } | { quote: WithdrawQuote } {
  const { terms } = ctx
  const typed = readTypedAmount(form.amount, terms.decimals)
  if ('problem' in typed) return typed
  if (typed.units < toUnits(terms.minWithdraw, terms.decimals))
    return { problem: 'amountBelowMinimum' }
  const paid = quoteWithFee(typed.units, withdrawTerms(terms), ctx.available)
  if ('problem' in paid) return paid
  const address = form.address.trim()
  if (!address) return { problem: 'addressRequired' }
  if (!isEvmAddress(address)) return { problem: 'addressInvalid' }
  return { quote: { ...paid, address } }
}

/** A withdrawal can be cancelled by its owner only while it waits for review. */
export const canCancel = (withdrawal: Pick<Withdrawal, 'status'>): boolean =>
  withdrawal.status === 0

export const WITHDRAWAL_TONES: Record<WithdrawalStatusCode, Tone> = {
  0: 'pending',
  1: 'moving',
  2: 'done',
  3: 'bad',
  4: 'bad',
  5: 'moving',
  6: 'off',
}

/** What left the USDT account: the amount and the fee the server charged. */
export function withdrawalTotal(withdrawal: Pick<Withdrawal, 'amount' | 'fee'>): string {
  return formatAmount(
    toUnits(withdrawal.amount, USDT_DECIMALS) + toUnits(withdrawal.fee, USDT_DECIMALS),
    USDT_DECIMALS,
  )
}

/** Until when a withdrawal to a new address waits before review, while it still does. */
export function heldUntil(w: Withdrawal, now = Date.now()): string | null {
  if (w.status !== 0 || !w.holdUntil) return null
  return new Date(w.holdUntil).getTime() > now ? w.holdUntil : null
}
