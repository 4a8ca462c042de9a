import type { PublicClient } from 'viem'

/**
 * Payout fees that follow the chain under the operators' cap: EIP-1559 fees read from
 * `eth_feeHistory` where blocks carry a base fee, a legacy gas price from `eth_gasPrice` on a
 * chain without EIP-1559; and the fee-raised replacement of a payout not mined in time.
 */

/** EIP-1559 fees. */
export interface Fees {
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/**
 * What a payout offers, with the transaction type that carries it: EIP-1559 fees, or a gas
 * price (a legacy, type 0, transaction) on a chain whose blocks have no base fee.
 */
export type PayoutFees = ({ type: 'eip1559' } & Fees) | { type: 'legacy'; gasPrice: bigint }

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

/**
 * The gas price of a legacy payout: the chain's (`eth_gasPrice`), at least the least tip (a
 * zero price could not be raised by a replacement), under `cap`.
 * @example legacyGasPrice(3_000_000_000n, 2_000_000_000n) // 2_000_000_000n
 */
export function legacyGasPrice(chainGasPrice: bigint, cap: bigint): bigint {
  return min(max(chainGasPrice, MIN_TIP), cap)
}

/**
 * The gas price of a replacement of a legacy payout sent at `sent`: raised by `bumpPercent`
 * (and to the chain's price now when that is higher), under `cap`; null when the cap leaves no
 * room for a raise of at least 12.5% (nodes refuse a smaller one for legacy transactions too).
 */
export function replacementGasPrice(
  sent: bigint,
  now: bigint,
  bumpPercent: number,
  cap: bigint,
): bigint | null {
  const next = min(max((sent * BigInt(100 + bumpPercent) + 99n) / 100n, now), cap)
  return next * 1_000n >= sent * MIN_RAISE_PER_MILLE ? next : null
}

/**
 * The fees a signed transaction offers, or null for a type a payout never has. A type 1
 * (EIP-2930) transaction pays a gas price as a legacy one does.
 */
export function feesOfTransaction(tx: {
  type?: string | undefined
  gasPrice?: bigint | undefined
  maxFeePerGas?: bigint | undefined
  maxPriorityFeePerGas?: bigint | undefined
}): PayoutFees | null {
  const { maxFeePerGas, maxPriorityFeePerGas } = tx
  if (tx.type === 'eip1559' && maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined)
    return { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas }
  if ((tx.type === 'legacy' || tx.type === 'eip2930') && tx.gasPrice !== undefined)
    return { type: 'legacy', gasPrice: tx.gasPrice }
  return null
}

/**
 * The fees of a replacement of a payout sent with `sent`, of the same type, under `cap`: see
 * `replacementFees` and `replacementGasPrice`. The fees `now` read as the other type (a chain
 * that changed its rules in between) count as a gas price of their fee cap, or as both fees of
 * the gas price.
 */
export function replacementPayoutFees(
  sent: PayoutFees,
  now: PayoutFees,
  bumpPercent: number,
  cap: bigint,
): PayoutFees | null {
  if (sent.type === 'legacy') {
    const nowPrice = now.type === 'legacy' ? now.gasPrice : now.maxFeePerGas
    const gasPrice = replacementGasPrice(sent.gasPrice, nowPrice, bumpPercent, cap)
    return gasPrice === null ? null : { type: 'legacy', gasPrice }
  }
  const nowFees =
    now.type === 'eip1559'
      ? now
      : { maxFeePerGas: now.gasPrice, maxPriorityFeePerGas: now.gasPrice }
  const fees = replacementFees(sent, nowFees, bumpPercent, cap)
  return fees && { type: 'eip1559', ...fees }
}

/**
 * The fees to offer now, under `cap` (wei): on a chain whose latest block has a base fee,
 * EIP-1559 fees at `percentile` of the recent tips; on one without (before London, or a chain
 * that never took EIP-1559), the chain's gas price for a legacy transaction.
 */
export async function readFees(
  client: PublicClient,
  percentile: number,
  cap: bigint,
): Promise<PayoutFees> {
  const latest = await client.getBlock({ blockTag: 'latest' })
  if (latest.baseFeePerGas === null || latest.baseFeePerGas === undefined)
    return { type: 'legacy', gasPrice: legacyGasPrice(await client.getGasPrice(), cap) }
  const history = await client.getFeeHistory({
    blockCount: HISTORY_BLOCKS,
    rewardPercentiles: [percentile],
    blockTag: 'latest',
  })
  const fees = feesFromHistory(history, cap)
  if (!fees)
    throw new Error(
      "The chain's latest block has a base fee but eth_feeHistory reports none: payouts " +
        'cannot be priced on this chain; its RPC endpoint must answer eth_feeHistory.',
    )
  return { type: 'eip1559', ...fees }
}

const min = (a: bigint, b: bigint) => (a < b ? a : b)
const max = (a: bigint, b: bigint) => (a > b ? a : b)
