import type { PublicClient } from 'viem'

/**
 * Payout fees that follow the chain: EIP-1559 fees read from `eth_feeHistory` under the
 * operators' cap, and the fee-raised replacement of a payout that was not mined in time.
 */

export interface Fees {
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/** Blocks of fee history one read asks for. */
const HISTORY_BLOCKS = 10
/** The least tip offered (0.001 gwei): a zero tip could not be raised by a replacement. */
const MIN_TIP = 1_000_000n
/** A replacement raises both fees by at least an eighth (12.5%), more than nodes require. */
const MIN_RAISE_PER_MILLE = 1_125n

/**
 * The fees to offer from a fee history: the tip is the median of the recent blocks' tips at the
 * percentile asked, the fee cap twice the next block's base fee plus the tip, both under `cap`;
 * null when the chain has no base fee (no EIP-1559).
 * @example feesFromHistory({ baseFeePerGas: [10n, 12n], reward: [[2n]] }, 100n) // { maxFeePerGas: 26n, … }
 */
export function feesFromHistory(
  history: { baseFeePerGas: readonly bigint[]; reward?: readonly (readonly bigint[])[] },
  cap: bigint,
): Fees | null {
  const base = history.baseFeePerGas.at(-1)
  if (base === undefined || history.baseFeePerGas.length === 0) return null
  const tips = (history.reward ?? [])
    .map((r) => r[0])
    .filter((t): t is bigint => t !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const median = tips.length ? tips[Math.floor(tips.length / 2)]! : 0n
  const tip = median > MIN_TIP ? median : MIN_TIP
  const maxFee = min(2n * base + tip, cap)
  return { maxFeePerGas: maxFee, maxPriorityFeePerGas: min(tip, maxFee) }
}

/**
 * The fees of a replacement of a payout sent with `sent`: each raised by `bumpPercent` (and to
 * the chain's fees now when those are higher), under `cap`; null when the cap leaves no room for
 * a raise of at least 12.5% of both (the payout waits, and operators are told).
 */
export function replacementFees(
  sent: Fees,
  now: Fees,
  bumpPercent: number,
  cap: bigint,
): Fees | null {
  const raise = (x: bigint) => (x * BigInt(100 + bumpPercent) + 99n) / 100n
  const maxFee = min(max(raise(sent.maxFeePerGas), now.maxFeePerGas), cap)
  const tip = min(max(raise(sent.maxPriorityFeePerGas), now.maxPriorityFeePerGas), maxFee)
  const enough = (next: bigint, prev: bigint) => next * 1_000n >= prev * MIN_RAISE_PER_MILLE
  if (!enough(maxFee, sent.maxFeePerGas) || !enough(tip, sent.maxPriorityFeePerGas)) return null
  return { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip }
}

/** The fees to offer now (`percentile` of the recent tips), under `cap` (wei). */
export async function readFees(
  client: PublicClient,
  percentile: number,
  cap: bigint,
): Promise<Fees> {
  const history = await client.getFeeHistory({
    blockCount: HISTORY_BLOCKS,
    rewardPercentiles: [percentile],
    blockTag: 'latest',
  })
  const fees = feesFromHistory(history, cap)
  if (!fees)
    throw new Error(
      'The chain reports no EIP-1559 base fee; payouts are signed as EIP-1559 transactions only.',
    )
  return fees
}

const min = (a: bigint, b: bigint) => (a < b ? a : b)
const max = (a: bigint, b: bigint) => (a > b ? a : b)
