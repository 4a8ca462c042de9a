/** Deposit states (DESIGN §5) and the moves between them; anything else is refused. */
export type DepositStatus = 'on_chain' | 'credited' | 'reorged' | 'unattributed'

const MOVES: Record<DepositStatus, DepositStatus[]> = {
  on_chain: ['credited', 'reorged'],
  reorged: ['on_chain'],
  credited: [],
  unattributed: [],
}

export const canMoveDeposit = (from: DepositStatus, to: DepositStatus): boolean =>
  MOVES[from].includes(to)

/** A block has `confirmations` when it and the blocks after it up to the head number that many. */
export const isConfirmed = (blockNumber: bigint, head: bigint, confirmations: number): boolean =>
  head - blockNumber + 1n >= BigInt(confirmations)

/**
 * The highest stored block whose hash the chain still has, given the stored hashes and the
 * chain's hashes for the same numbers; `null` when none match (walk back further). Numbers
 * above the result were reorganised away.
 */
export function commonAncestor(
  stored: Map<bigint, string>,
  chain: Map<bigint, string>,
): bigint | null {
  const numbers = [...stored.keys()].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))
  for (const n of numbers)
    if (chain.get(n)?.toLowerCase() === stored.get(n)?.toLowerCase()) return n
  return null
}

/** The next block range to scan: at most `batch` blocks after the cursor, never past the head. */
export function nextRange(
  cursor: bigint,
  head: bigint,
  batch: bigint,
): { from: bigint; to: bigint } | null {
  if (head <= cursor) return null
  const to = cursor + batch < head ? cursor + batch : head
  return { from: cursor + 1n, to }
}
