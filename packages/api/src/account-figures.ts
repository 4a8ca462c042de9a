/**
 * `userAccount/figures`: the account display fields of spec §3 that are worked out from the
 * user's history rather than read off a balance. Amounts are decimal strings in USDT.
 *
 * - `rateOfReturn`: the USDT value released so far by the user's consensus positions divided by
 *   the USDT principal of those positions, as a percentage (`mine.released / mine.principal ×
 *   100` of `game/info`); `null` while the principal is 0 (no consensus entry yet).
 * - `tradingVolume`: the USDT the user exchanged against HOPE: consensus entries (log type 16),
 *   purchases paid (upgrades, nodes, activations: log type 15) and redemption proceeds (log
 *   type 2); the sum of the absolute amounts of those posted lines of the user's USDT account.
 * - `totalVolume`: every posted line of the user's USDT account, absolute amounts: recharges,
 *   withdrawals, transfers in and out, collections, trades, fees, rewards and operators'
 *   credits and debits. A withdrawal counts once it is paid out; a reservation given back
 *   counts nothing.
 * - `asOf`: the volumes are running totals kept by a background job; every line posted before
 *   this time is in them (a few posted after it may be too). `null` before the job's first run.
 *
 * @example { rateOfReturn: '12.5', tradingVolume: '1300', totalVolume: '2650.5', asOf: '2026-11-26T08:00:00.000Z' }
 */
export interface AccountFigures {
  /** Percent, rounded down to two decimals, e.g. '12.5' for 12.5 %; null without a consensus principal. */
  rateOfReturn: string | null
  tradingVolume: string
  totalVolume: string
  /** ISO time the volumes are complete up to; null before they were first counted. */
  asOf: string | null
}
