/** Decimals the ledger keeps USDT in (DESIGN §4). */
const LEDGER_USDT_DECIMALS = 6

export type DepositAmountVerdict =
  { creditable: true; credit: bigint } | { creditable: false; reason: 'amount_too_large' }

/**
 * Whether a Transfer log's value may be credited automatically, and what the ledger credits.
 * The chain decides the value (up to uint256); one deposit may carry at most the operators'
 * USDT bound, compared exactly at the token's decimals, so no larger amount ever reaches the
 * ledger. The credit is the value in USDT minor units, truncated: dust finer than the
 * ledger's 6 decimals stays on chain.
 * @param value the log's value in the token's smallest units
 * @param decimals the token's decimals
 * @param boundUsdtUnits the bound on one amount (`maxAmountUsdt`) in USDT minor units
 */
export function depositAmountVerdict(
  value: bigint,
  decimals: number,
  boundUsdtUnits: bigint,
): DepositAmountVerdict {
  const scale = 10n ** BigInt(decimals)
  const ledgerScale = 10n ** BigInt(LEDGER_USDT_DECIMALS)
  // value / 10^decimals > bound / 10^6, without dividing.
  if (value * ledgerScale > boundUsdtUnits * scale)
    return { creditable: false, reason: 'amount_too_large' }
  return { creditable: true, credit: (value * ledgerScale) / scale }
}
