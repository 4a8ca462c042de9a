// Redemption of community HOPE and the linear release of pledge items (DESIGN §7), over
// integer units (lib/units.ts).
import { redemptionSplit } from '@hope/api/money-rules'
import { PPM } from '../../lib/units.ts'

export interface RedemptionParams {
  /** share redeemed into USDT, ppm (80%); the rest becomes a pledge item */
  redeemShare: bigint
  /** fee on the redeemed USDT, ppm (5%) */
  feeRate: bigint
}

/**
 * Redeeming `hope` community HOPE at `price`: the redeemed part's gross USDT and fee, and the
 * pledge part; redeemed + pledged = hope exactly, net + fee = gross exactly.
 */
export function redemption(
  hope: bigint,
  price: bigint,
  p: RedemptionParams,
): { redeemed: bigint; pledged: bigint; gross: bigint; fee: bigint; net: bigint } {
  if (hope <= 0n) throw new RangeError('redemption must be positive')
  // The split the app shows, written once in `@hope/api`, at the settings' ppm rates.
  return redemptionSplit(hope, price, {
    redeemShare: { rate: p.redeemShare, scale: PPM },
    feeRate: { rate: p.feeRate, scale: PPM },
  })
}

/**
 * One day's release of something released linearly (a pledge item, split HOPE): `rate` ppm of
 * the original amount, never more than what is left. Done when nothing is left.
 */
export function linearRelease(
  total: bigint,
  released: bigint,
  rate: bigint,
): { amount: bigint; done: boolean } {
  const left = total > released ? total - released : 0n
  const daily = (total * rate) / PPM
  const amount = daily === 0n && left > 0n ? left : daily < left ? daily : left
  return { amount, done: released + amount >= total }
}
