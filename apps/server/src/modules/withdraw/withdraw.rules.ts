/**
 * Withdrawal states as the spec numbers them, and every move between them (DESIGN §5).
 * Refunds (3, 4, 6) void the reservation; completion (2) posts it.
 */
export const WITHDRAWAL_STATUS = {
  pendingReview: 0,
  reviewPassed: 1,
  completed: 2,
  rejected: 3,
  failed: 4,
  confirmed: 5,
  canceled: 6,
} as const
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUS)[keyof typeof WITHDRAWAL_STATUS]

export type WithdrawalEvent =
  'approve' | 'reject' | 'cancel' | 'confirm' | 'fail' | 'complete' | 'reorg'

const S = WITHDRAWAL_STATUS
const MOVES: Record<WithdrawalEvent, { from: WithdrawalStatus[]; to: WithdrawalStatus }> = {
  approve: { from: [S.pendingReview], to: S.reviewPassed },
  reject: { from: [S.pendingReview], to: S.rejected },
  cancel: { from: [S.pendingReview], to: S.canceled },
  confirm: { from: [S.reviewPassed], to: S.confirmed },
  fail: { from: [S.reviewPassed], to: S.failed },
  complete: { from: [S.confirmed], to: S.completed },
  /** The payout's block was reorganised away before the depth: it is re-sent as recorded. */
  reorg: { from: [S.confirmed], to: S.reviewPassed },
}

export type Transition =
  { ok: true; to: WithdrawalStatus; ledger: 'none' | 'post' | 'void' } | { ok: false }

/** The next state for an event, and what it means for the reserved money; illegal moves are refused. */
export function transition(from: WithdrawalStatus, event: WithdrawalEvent): Transition {
  const move = MOVES[event]
  if (!move.from.includes(from)) return { ok: false }
  const ledger =
    move.to === S.completed
      ? 'post'
      : move.to === S.rejected || move.to === S.failed || move.to === S.canceled
        ? 'void'
        : 'none'
  return { ok: true, to: move.to, ledger }
}

export const isFinal = (s: WithdrawalStatus): boolean =>
  s === S.completed || s === S.rejected || s === S.failed || s === S.canceled

/**
 * The hours a withdrawal waits before review: `hours` (setting newAddressHoldHours) for an
 * address the user has not been paid at before, none for the user's own wallet or a known one.
 */
export function holdHoursFor(w: {
  owner: string
  to: string
  paidThereBefore: boolean
  hours: number
}): number {
  if (w.owner.toLowerCase() === w.to.toLowerCase() || w.paidThereBefore) return 0
  return w.hours
}

/** Whether a held withdrawal may be approved at `now`. */
export const holdIsOver = (holdUntil: Date | null, now: Date): boolean =>
  holdUntil === null || holdUntil.getTime() <= now.getTime()

/** A `Paid` event of the payout vault, as the chain tells it (amount in token units). */
export interface VaultPaid {
  chainId: number
  payoutId: string
  to: string
  units: bigint
  txHash: string
  blockNumber: bigint
}

/**
 * What the books do with a payout the vault made under a withdrawal's payout id: `confirm` an
 * approved one (the chain paid it, so it is never paid again), `record` the chain's hash on one
 * already paid, or `mismatch` when the chain paid another address, amount or chain, or paid a
 * withdrawal the books never approved or already refunded.
 */
export function vaultPaymentMeaning(
  w: { status: WithdrawalStatus; chainId: number; toAddress: string; units: bigint },
  paid: VaultPaid,
): { act: 'confirm' | 'record' } | { act: 'mismatch'; detail: string } {
  if (w.chainId !== paid.chainId)
    return { act: 'mismatch', detail: `chain ${paid.chainId}, not the withdrawal's ${w.chainId}` }
  if (w.toAddress.toLowerCase() !== paid.to.toLowerCase())
    return { act: 'mismatch', detail: `paid ${paid.to}, not the recorded ${w.toAddress}` }
  if (w.units !== paid.units)
    return { act: 'mismatch', detail: `paid ${paid.units} units, not the recorded ${w.units}` }
  if (w.status === S.reviewPassed) return { act: 'confirm' }
  if (w.status === S.confirmed || w.status === S.completed) return { act: 'record' }
  return { act: 'mismatch', detail: `paid while the withdrawal is in status ${w.status}` }
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

/**
 * Whether no withdrawal may go to `to`: the zero address, or one of `platform`, the platform's
 * own addresses (token contract, deposit address, payout vault, proof-of-liabilities registry,
 * reserves, the keys' wallets). Tokens sent there are burnt, stuck in a contract, or land in
 * the platform's own wallets as no one's money. Empty entries (an unset setting) are skipped;
 * addresses compare case-insensitively.
 */
export function isForbiddenDestination(
  to: string,
  platform: readonly (string | null | undefined)[],
): boolean {
  const address = to.toLowerCase()
  if (address === ZERO_ADDRESS) return true
  return platform.some((p) => !!p && p.toLowerCase() === address)
}

/** An EIP-7702 delegation: an account that keeps its key and only runs code it points to. */
const DELEGATION = /^0xef0100[0-9a-f]{40}$/i

/**
 * Whether the code at an address (`eth_getCode`) makes it a contract: any code but an EIP-7702
 * delegation, whose key holder still moves the tokens; null when the chain was not asked.
 */
export function isContractCode(code: string | null | undefined): boolean | null {
  if (code === null) return null
  if (code === undefined || code === '' || code === '0x') return false
  return !DELEGATION.test(code)
}
