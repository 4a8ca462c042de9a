import { z } from 'zod'
import { PageParams, intParam } from './common.ts'

/**
 * Proof of liabilities and reserves (`por/*`, `admin/por*`). Every day the platform commits
 * each user's USDT and HOPE in a Merkle-sum tree, anchors its root and totals in the registry
 * contract on chain, and hands each user the proof of their own balance. Amounts are decimal
 * strings; the tree and the registry hold the same values as integers at the currency's scale
 * (USDT 6 decimals, HOPE 18) and reserve balances at the token's decimals.
 */

/**
 * An address the platform holds the users' USDT in (a wallet, or the payout vault contract), its
 * balance at the snapshot's block.
 */
export interface PorReserve {
  address: string
  /** The token balance at block B. */
  balance: string
  /** The exact text the address signs once: it names the address, the chain and the registry. */
  message: string
  /**
   * The EIP-191 signature of `message`: a wallet's by its key, the vault's by its owner's (the
   * vault accepts it through EIP-1271); null until signed.
   */
  signature: string | null
}

/**
 * The newest published snapshot, everything a verifier needs besides the user's own proof.
 * @example { snapshotId: 12, blockNumber: 20311456, root: '0x9f…', totalUsdt: '1520.5', … }
 */
export interface PorLatest {
  snapshotId: number
  takenAt: string
  chainId: number
  /** Block B: the balances are the books at the time it was the confirmation depth. */
  blockNumber: number
  blockHash: string
  root: string
  totalUsdt: string
  totalHope: string
  /** Of totalUsdt, the withdrawals broadcast but not confirmed at B (maybe already paid out). */
  inFlightUsdt: string
  registryAddress: string
  publishTxHash: string | null
  tokenAddress: string
  tokenDecimals: number
  reserves: PorReserve[]
  reservesUsdt: string
  /** Reserves ÷ USDT liabilities, e.g. "1.0250"; null when nothing is owed. */
  coverage: string | null
}

/**
 * The caller's proof of the newest published snapshot, or of `snapshotId` within retention.
 * The answer is null when the caller is not in the newest snapshot (they joined after its
 * block) or none is published yet.
 */
export const PorMyProofParams = z.object({
  snapshotId: intParam(1, 999_999_999).optional(),
})

/**
 * `ledgerPosition`: the cut to read the account log at, as the registry anchored it on chain
 * (the app reads it there); the snapshot's own cut when absent. A decimal integer.
 */
export const PorMyStatementParams = PorMyProofParams.extend({
  ledgerPosition: z
    .string()
    // At most 18 digits: below 2^63, a bigint id.
    .regex(/^(0|[1-9][0-9]{0,17})$/, 'a ledger position')
    .optional(),
})

/**
 * What the app showed the caller at a snapshot's cut: each account's balance in their account
 * log after its last line at or before the snapshot's ledger position. The verify screen and the
 * daily check compare it with the proven balance: USDT (usdt, node and shareholder accounts) must
 * be equal; the proven HOPE is the HOPE accounts (community, split) plus staked HOPE and what
 * pledges still owe, so it is at least `hopeAccounts`. Null when the snapshot has no ledger
 * position (taken before it was kept) or none is published.
 */
export interface PorStatement {
  snapshotId: number
  ledgerPosition: string
  /** USDT at the cut, the sum of the usdt, node and shareholder accounts. */
  usdt: string
  /** HOPE at the cut in the community and split accounts. */
  hopeAccounts: string
}

/** A user's proof file as the tree gave it (parts, salts, paths); `por-verify` reads it. */
export type PorProof = Record<string, unknown>

export const AdminPorSnapshotsParams = PageParams

/** One snapshot as the console lists it. */
export interface AdminPorSnapshot {
  id: number
  takenAt: string
  blockNumber: number
  users: number
  totalUsdt: string
  totalHope: string
  inFlightUsdt: string
  reservesUsdt: string
  coverage: string | null
  status: 'pending' | 'published' | 'reorged'
  publishTxHash: string | null
  publishAttempts: number
  publishedAt: string | null
}

/** "Publish now": the snapshot job takes the request on its next tick. */
export interface AdminPorPublishResult {
  requestedAt: string
  /** False when a request was already waiting: the one waiting answers it. */
  created: boolean
}
