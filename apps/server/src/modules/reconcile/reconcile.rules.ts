/** One comparison of what the chain holds with what the books say. */
export interface ReconcileLine {
  name: string
  chain: bigint
  books: bigint
}

/** The lines that differ, each as a sentence naming both figures (amounts in token units). */
export function differences(lines: ReconcileLine[], format: (units: bigint) => string): string[] {
  return lines
    .filter((l) => l.chain !== l.books)
    .map(
      (l) =>
        `${l.name}: chain ${format(l.chain)} but books ${format(l.books)} (difference ${format(l.chain - l.books)})`,
    )
}

// The scan of the payout vault and the platform's addresses: where it reads, in what ranges,
// and which token movements the vault's own events do not explain. The ranges themselves are
// the chain's (chain/log-range.ts).
export { halveSpan, isRangeRefusal, scanRange, type BlockRange } from '../../chain/log-range.ts'

/**
 * The highest block with `confirmations` (the block itself counts one, as for deposits): the
 * scan reads no further, so what it judged is not undone by an ordinary reorganisation.
 * @example safeHead(100n, 12) // 89n
 */
export function safeHead(head: bigint, confirmations: number): bigint {
  return head - BigInt(confirmations) + 1n
}

/**
 * Where the scan resumes: after its checkpoint; at `firstBlock` (the vault's deployment) on the
 * first run, or when the checkpoint's block now has another hash (a reorganisation deeper than
 * the confirmations, or a chain started anew): what was judged there is judged again, which
 * changes nothing already recorded. `chainHash` undefined: not asked (no hash was stored).
 */
export function resumeFrom(
  checkpoint: { block: bigint; blockHash: string | null } | null,
  chainHash: string | null | undefined,
  firstBlock: bigint,
): { from: bigint; replaced: boolean } {
  if (!checkpoint) return { from: firstBlock, replaced: false }
  const replaced =
    checkpoint.blockHash !== null &&
    chainHash !== undefined &&
    chainHash !== null &&
    chainHash.toLowerCase() !== checkpoint.blockHash.toLowerCase()
  if (replaced) return { from: firstBlock, replaced }
  const after = checkpoint.block + 1n
  return { from: after > firstBlock ? after : firstBlock, replaced }
}

/** A token Transfer out of one of the platform's addresses. */
export interface TokenOutflow {
  txHash: string
  logIndex: number
  from: string
  to: string
  units: bigint
}

/** A `Paid` or `MovedToCold` event of the vault: money it says it sent. */
export interface VaultSending {
  txHash: string
  to: string
  units: bigint
}

/**
 * The outflows nothing explains. A Transfer out of the vault is explained by one `Paid` or
 * `MovedToCold` of the vault in the same transaction to the same address for the same amount,
 * each event explaining one transfer. Out of any other address of the platform (the hot wallet,
 * the deposit address) nothing is explained: payouts leave only through the vault. A zero-value
 * transfer moves nothing (anyone can make a token log one from any address) and is left out.
 */
export function unexplainedOutflows(
  outflows: readonly TokenOutflow[],
  sendings: readonly VaultSending[],
  vault: string,
): TokenOutflow[] {
  const key = (tx: string, to: string, units: bigint) =>
    `${tx.toLowerCase()}:${to.toLowerCase()}:${units}`
  const explaining = new Map<string, number>()
  for (const s of sendings) {
    const k = key(s.txHash, s.to, s.units)
    explaining.set(k, (explaining.get(k) ?? 0) + 1)
  }
  const ours = vault.toLowerCase()
  return outflows.filter((o) => {
    if (o.units === 0n) return false
    if (o.from.toLowerCase() !== ours) return true
    const k = key(o.txHash, o.to, o.units)
    const left = explaining.get(k) ?? 0
    if (left === 0) return true
    explaining.set(k, left - 1)
    return false
  })
}

/** What the books made of a `Paid` event (the withdrawal module's word for it). */
export type PayoutOutcomeKind = 'confirmed' | 'known' | 'unknown' | 'mismatch'

/** The operators' alarms the scan raises, by kind. */
export const CHAIN_ALARM_KINDS = [
  'payout_unknown',
  'payout_mismatch',
  'unexplained_outflow',
] as const
export type ChainAlarmKind = (typeof CHAIN_ALARM_KINDS)[number]

/** The alarm a payout's outcome raises: a payout the books do not know, or that differs. */
export function payoutAlarmKind(outcome: PayoutOutcomeKind): ChainAlarmKind | null {
  if (outcome === 'unknown') return 'payout_unknown'
  if (outcome === 'mismatch') return 'payout_mismatch'
  return null
}
