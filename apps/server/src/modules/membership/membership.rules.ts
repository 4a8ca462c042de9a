// Membership levels (DESIGN §7), over USDT units (lib/units.ts).

/** What an upgrade from one membership level to a higher one costs: only the difference. */
export function upgradeCost(prices: readonly bigint[], from: number, to: number): bigint {
  if (!(to > from) || to >= prices.length) throw new RangeError('not an upgrade')
  return prices[to]! - prices[from]!
}
