import type { GameInfo } from '@hope/api'
import type { Checked } from '../../lib/money-flow/checks.ts'
import { checkRedeem, redemption, showHope, showUsdt, usdtUnits } from './stake.rules.ts'

export type ExchangeProblem = 'amountRequired' | 'amountInvalid' | 'insufficient'

/** A redemption worked out for the form, the sheet and the result, as decimal strings. */
export interface ExchangeQuote {
  amount: string
  price: string
  redeemed: string
  pledged: string
  gross: string
  fee: string
  net: string
}

export type ExchangeTerms = Pick<GameInfo, 'price' | 'redeemShare' | 'redeemFeeRate'>

/**
 * The redemption's checks (spec §5): empty (`units` null) is "Please enter the redemption
 * quantity"; zero is "Please enter the correct redemption quantity"; more than the community
 * account holds is insufficient, saying what it holds (HOPE is spent, so no USDT shortfall). The quote, worked out as the
 * server does, only for an amount that passes.
 * @example checkExchange(100n * 10n ** 18n, info, '1200.5') // { quote: { net: '7.6', … } }
 */
export function checkExchange(
  units: bigint | null,
  info: ExchangeTerms,
  available: string,
): Checked<ExchangeProblem, ExchangeQuote> {
  const check = checkRedeem(units === null ? '' : showHope(units), available)
  if ('problem' in check) return check
  const price = usdtUnits(info.price)
  const r = redemption(check.units, price, info)
  return {
    quote: {
      amount: showHope(check.units),
      price: showUsdt(price),
      redeemed: showHope(r.redeemed),
      pledged: showHope(r.pledged),
      gross: showUsdt(r.gross),
      fee: showUsdt(r.fee),
      net: showUsdt(r.net),
    },
  }
}
