import {
  CURRENCY_DECIMALS,
  formatAmount,
  trimDecimal,
  type GameInfo,
  type PledgeItem,
  type StakePosition,
} from '@hope/api'
import { hopeFor, redemptionSplit, timesRate as floorTimes } from '@hope/api/money-rules'
import { parseRate } from '../../lib/format/fee.ts'
import { ratePercent } from '../../lib/format/format.ts'
import { shortfallOf, type Checked } from '../../lib/money-flow/checks.ts'
import { readTypedAmount, toUnits } from '../../lib/format/money-input.ts'
import type { Tone } from '../../lib/ui/status-tag.tsx'

// The staking screens' rules over bigint units, as the server's staking and redemption rules
// work them out:
// USDT amounts and prices in 6-decimal units, HOPE amounts in 18-decimal units.

export const USDT_DECIMALS = CURRENCY_DECIMALS.USDT
export const HOPE_DECIMALS = CURRENCY_DECIMALS.HOPE

/** USDT or HOPE units of a decimal string from the server (NUMERIC text may carry zeros). */
export const usdtUnits = (value: string): bigint => toUnits(value, USDT_DECIMALS)
export const hopeUnits = (value: string): bigint => toUnits(value, HOPE_DECIMALS)
export const showUsdt = (units: bigint): string => formatAmount(units, USDT_DECIMALS)
export const showHope = (units: bigint): string => formatAmount(units, HOPE_DECIMALS)

/** Floor of units × rate, exact for any decimal rate (0 for a setting that is not one). */
const timesRate = (units: bigint, rate: string): bigint => floorTimes(units, parseRate(rate))

/** The HOPE units a USDT amount buys at a price, rounded down: the server's rule. */
export { hopeFor }

/**
 * The largest consensus entry the available USDT pays: a whole multiple of the step, at
 * least the minimum; 0 when the balance does not reach the minimum.
 * @example maxEntry(1234_000000n, 100_000000n, 100_000000n) // 1200_000000n
 */
export function maxEntry(available: bigint, min: bigint, step: bigint): bigint {
  const max = step > 0n ? available - (available % step) : available
  return max >= min && max > 0n ? max : 0n
}

export type StakeProblem =
  'amountRequired' | 'amountInvalid' | 'belowMinimum' | 'notMultiple' | 'insufficient'

/** The consensus entry's terms from `game/info` and the available USDT, as decimal strings. */
export interface StakeTerms {
  minEntry: string
  entryStep: string
  available: string
}

/**
 * The checks made before the confirmation, in the server's order: an amount ("Please enter
 * quantity"), a valid one, the minimum, then the step (each its own message; the server
 * answers both with `stake_amount_invalid`), then the available USDT. The amount to send, or the first problem.
 * @example checkStake('200', { minEntry: '100', entryStep: '100', available: '500' }) // { amount: '200' }
 */
export function checkStake(
  text: string,
  terms: StakeTerms,
): { problem: StakeProblem } | { amount: string } {
  const typed = readTypedAmount(text, USDT_DECIMALS)
  if ('problem' in typed) return typed
  const step = usdtUnits(terms.entryStep)
  if (typed.units < usdtUnits(terms.minEntry)) return { problem: 'belowMinimum' }
  if (step > 0n && typed.units % step !== 0n) return { problem: 'notMultiple' }
  if (typed.units > usdtUnits(terms.available)) return { problem: 'insufficient' }
  return { amount: showUsdt(typed.units) }
}

/** What a confirmed consensus entry is expected to give, for the sheet (decimal strings). */
export interface StakeQuote {
  amount: string
  price: string
  hope: string
  /** percent per day, e.g. '0.5' */
  dailyRate: string
  capMultiple: string
  cap: string
}

export function quoteStake(amount: string, info: GameInfo): StakeQuote {
  const units = usdtUnits(amount)
  return {
    amount,
    price: trimDecimal(info.price),
    hope: showHope(hopeFor(units, usdtUnits(info.price))),
    dailyRate: ratePercent(info.dailyRate),
    capMultiple: trimDecimal(info.capMultiple),
    cap: showUsdt(timesRate(units, info.capMultiple)),
  }
}

/**
 * The consensus entry as the form checks it while typing: `units` null is an empty field; a
 * USDT amount over the balance says what is missing; the quote (the HOPE estimate) only for
 * an amount the server would take, so that 50 USDT never shows an estimate.
 * @example checkEntry(50_000000n, info, '500') // { problem: 'belowMinimum' }
 */
export function checkEntry(
  units: bigint | null,
  info: GameInfo,
  available: string,
): Checked<StakeProblem, StakeQuote> {
  const amount = units === null ? '' : showUsdt(units)
  const check = checkStake(amount, { ...info, available })
  if ('amount' in check) return { quote: quoteStake(check.amount, info) }
  if (check.problem === 'insufficient')
    return { problem: 'insufficient', shortfall: shortfallOf(available, amount) }
  return check
}

/** The redemption terms of `game/info`: the share redeemed into USDT and the fee on it. */
export type RedemptionTerms = Pick<GameInfo, 'redeemShare' | 'redeemFeeRate'>

export interface Redemption {
  /** HOPE units redeemed into USDT, and pledged (released back day by day) */
  redeemed: bigint
  pledged: bigint
  /** USDT units: the redeemed part at the price, the fee on it, and what reaches the account */
  gross: bigint
  fee: bigint
  net: bigint
}

/**
 * Redeeming `hope` community HOPE units at `price` (USDT units per HOPE), by the rule the
 * server charges with (`redemptionSplit` in `@hope/api`): redeemed = hope × redeemShare rounded down, pledged = the rest; gross =
 * redeemed × price rounded down to USDT units; fee = gross × feeRate rounded up (never more
 * than gross); net = gross − fee. So redeemed + pledged = hope and net + fee = gross.
 * @example redemption(100n * 10n ** 18n, 100000n, { redeemShare: '0.8', redeemFeeRate: '0.05' })
 * // { redeemed: 80 HOPE, pledged: 20 HOPE, gross: 8 USDT, fee: 0.4 USDT, net: 7.6 USDT }
 */
export function redemption(hope: bigint, price: bigint, terms: RedemptionTerms): Redemption {
  return redemptionSplit(hope, price, {
    redeemShare: parseRate(terms.redeemShare),
    feeRate: parseRate(terms.redeemFeeRate),
  })
}

export type RedeemProblem = 'amountRequired' | 'amountInvalid' | 'insufficient'

/**
 * The redemption's checks before any request, with the spec's two messages: empty is "Please
 * enter the redemption quantity"; zero or not a HOPE decimal is "Please enter the correct
 * redemption quantity"; more than the community account holds is insufficient (with what it
 * holds).
 * @example checkRedeem('100', '1200.5') // { units: 100n * 10n ** 18n }
 */
export function checkRedeem(
  text: string,
  available: string,
): { problem: RedeemProblem } | { units: bigint } {
  const typed = readTypedAmount(text, HOPE_DECIMALS)
  if ('problem' in typed) return typed
  if (typed.units > hopeUnits(available)) return { problem: 'insufficient' }
  return typed
}

/**
 * A part of a whole as a percentage with two decimals, rounded down and kept within 0–100
 * (the stage's sold HOPE, a position's released value).
 * @example percentOf(123_456n, 1_000_000n) // '12.34'
 */
export function percentOf(part: bigint, whole: bigint): string {
  if (whole <= 0n || part <= 0n) return '0'
  const hundredths = part >= whole ? 10_000n : (part * 10_000n) / whole
  return formatAmount(hundredths, 2)
}

/** rate / scale × 100 as a decimal string, exact: the scale is a power of ten. */
const percentText = (rate: bigint, scale: bigint): string =>
  formatAmount(rate * 100n, scale.toString().length - 1)

/**
 * The redemption's split as percentages: the share redeemed into USDT and the rest pledged.
 * @example splitPercents('0.8') // { redeem: '80', pledge: '20' }
 */
export function splitPercents(redeemShare: string): { redeem: string; pledge: string } {
  const { rate, scale } = parseRate(redeemShare)
  const share = rate < scale ? rate : scale
  return { redeem: percentText(share, scale), pledge: percentText(scale - share, scale) }
}

export { cutDecimals } from '../../lib/format/format.ts'

export const POSITION_TONES: Record<StakePosition['status'], Tone> = {
  active: 'moving',
  out: 'off',
}

/** A pledge item is being released back (moving) until it is redeemed (done). */
export const pledgeTone = (item: PledgeItem): Tone => (item.redeemed ? 'done' : 'moving')
