import type { Queryable } from '../../db/transaction.ts'
import type { WithdrawalStatus } from './withdraw.rules.ts'

export interface WithdrawalRow {
  id: number
  userId: number
  chainId: number
  toAddress: string
  amount: string
  fee: string
  status: WithdrawalStatus
  amountTransferId: number
  feeTransferId: number | null
  /** The 32 random bytes (hex) the payout vault pays this withdrawal under, once. */
  payoutId: string
  rawTx: string | null
  txHash: string | null
  txBlock: string | null
  /** The head when the recorded payout was sent (its replacement clock); null before. */
  payoutSentBlock: string | null
  payoutReplacements: number
  reviewReason: string | null
  /** Until when a withdrawal to a new address waits before review; null when it does not. */
  holdUntil: Date | null
  createdAt: Date
  updatedAt: Date
}

// Selected straight into the row's shape: ids fit a JS number, amounts and blocks stay text.
const WITHDRAWAL_COLUMNS = `id::int, user_id::int AS "userId", chain_id::int AS "chainId", to_address AS "toAddress",
  amount::text, fee::text, status, amount_transfer_id::int AS "amountTransferId", fee_transfer_id::int AS "feeTransferId",
  payout_id AS "payoutId", raw_tx AS "rawTx", tx_hash AS "txHash", tx_block::text AS "txBlock",
  payout_sent_block::text AS "payoutSentBlock", payout_replacements AS "payoutReplacements", review_reason AS "reviewReason",
  hold_until AS "holdUntil", created_at AS "createdAt", updated_at AS "updatedAt"`

export async function findByIdempotencyKey(
  q: Queryable,
  userId: number,
  idempotencyKey: string,
): Promise<WithdrawalRow | undefined> {
  const res = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE user_id = $1 AND idempotency_key = $2`,
    [userId, idempotencyKey],
  )
  return res.rows[0]
}

/** Records a requested withdrawal; undefined when the user's idempotency key is taken. */
export async function insertWithdrawal(
  q: Queryable,
  values: {
    userId: number
    chainId: number
    toAddress: string
    amount: string
    fee: string
    idempotencyKey: string
    amountTransferId: number
    feeTransferId: number | null
    /** Whether code is deployed at the destination; null when the chain was not asked. */
    contractDestination: boolean | null
    /** Whether the request carried the member's wallet signature, verified. */
    walletSigned: boolean
    /** Hours it waits before review (a new address); 0 for none. */
    holdHours: number
  },
): Promise<WithdrawalRow | undefined> {
  const res = await q.query<WithdrawalRow>(
    `INSERT INTO withdrawals (user_id, chain_id, to_address, amount, fee, status, idempotency_key, amount_transfer_id, fee_transfer_id, hold_until, contract_destination, wallet_signed)
     VALUES ($1, $2, $3, $4, $5, 0, $6, $7, $8,
             CASE WHEN $9::int > 0 THEN now() + make_interval(hours => $9::int) END, $10, $11)
     ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING ${WITHDRAWAL_COLUMNS}`,
    [
      values.userId,
      values.chainId,
      values.toAddress,
      values.amount,
      values.fee,
      values.idempotencyKey,
      values.amountTransferId,
      values.feeTransferId,
      values.holdHours,
      values.contractDestination,
      values.walletSigned,
    ],
  )
  return res.rows[0]
}

/** Whether the user was paid at (or approved for) `address` before. */
export async function paidAtBefore(
  q: Queryable,
  userId: number,
  address: string,
): Promise<boolean> {
  const res = await q.query(
    `SELECT 1 FROM withdrawals WHERE user_id = $1 AND to_address = $2 AND status IN (1, 2, 5) LIMIT 1`,
    [userId, address],
  )
  return res.rowCount! > 0
}

/** A page of a user's withdrawals, newest first. */
export async function listOfUser(
  q: Queryable,
  userId: number,
  page: { limit: number; offset: number },
): Promise<WithdrawalRow[]> {
  const res = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [userId, page.limit, page.offset],
  )
  return res.rows
}

export async function countOfUser(q: Queryable, userId: number): Promise<number> {
  const res = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM withdrawals WHERE user_id = $1',
    [userId],
  )
  return res.rows[0]!.n
}

/** One withdrawal, locked until the transaction ends. */
export async function lockWithdrawal(q: Queryable, id: number): Promise<WithdrawalRow | undefined> {
  const res = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE id = $1 FOR UPDATE`,
    [id],
  )
  return res.rows[0]
}

/** The withdrawal the vault pays under `payoutId`, locked until the transaction ends. */
export async function lockByPayoutId(
  q: Queryable,
  payoutId: string,
): Promise<WithdrawalRow | undefined> {
  const res = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE payout_id = $1 FOR UPDATE`,
    [payoutId.toLowerCase()],
  )
  return res.rows[0]
}

/**
 * Records the transaction the chain paid a withdrawal in, as the chain tells it: its hash and
 * block, and the signed bytes only when they are that transaction's.
 */
export async function recordChainPayout(
  q: Queryable,
  id: number,
  txHash: string,
  block: bigint,
): Promise<void> {
  await q.query(
    `UPDATE withdrawals SET raw_tx = CASE WHEN tx_hash = $2 THEN raw_tx END, tx_hash = $2,
       tx_block = $3, updated_at = now() WHERE id = $1`,
    [id, txHash.toLowerCase(), String(block)],
  )
}

/** The withdrawals in `status` on `chainId`, oldest first. */
export async function listByStatus(
  q: Queryable,
  status: WithdrawalStatus,
  chainId: number,
): Promise<WithdrawalRow[]> {
  const res = await q.query<WithdrawalRow>(
    `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE status = $1 AND chain_id = $2 ORDER BY id`,
    [status, chainId],
  )
  return res.rows
}

/**
 * Moves a withdrawal to `status`; a reviewer, a review reason or a failure given is recorded,
 * one not given keeps what was there.
 */
export async function setStatus(
  q: Queryable,
  id: number,
  status: WithdrawalStatus,
  set: { reviewedBy?: number; reviewReason?: string; failure?: string } = {},
): Promise<WithdrawalRow> {
  const res = await q.query<WithdrawalRow>(
    `UPDATE withdrawals SET status = $2, updated_at = now(),
       reviewed_by = coalesce($3, reviewed_by), review_reason = coalesce($4, review_reason), failure = coalesce($5, failure),
       reviewed_at = CASE WHEN $3::bigint IS NULL THEN reviewed_at ELSE now() END
     WHERE id = $1 RETURNING ${WITHDRAWAL_COLUMNS}`,
    [id, status, set.reviewedBy ?? null, set.reviewReason ?? null, set.failure ?? null],
  )
  return res.rows[0]!
}

/** Records the signed payout of a withdrawal, once: a payout already recorded stays. */
export async function recordPayout(
  q: Queryable,
  id: number,
  rawTx: string,
  txHash: string,
): Promise<void> {
  await q.query(
    'UPDATE withdrawals SET raw_tx = $2, tx_hash = $3, updated_at = now() WHERE id = $1 AND raw_tx IS NULL',
    [id, rawTx, txHash],
  )
}

/** Starts the payout's replacement clock at `block` (the head it was sent at), once. */
export async function setPayoutSentBlock(q: Queryable, id: number, block: bigint): Promise<void> {
  await q.query(
    'UPDATE withdrawals SET payout_sent_block = $2 WHERE id = $1 AND payout_sent_block IS NULL',
    [id, String(block)],
  )
}

/**
 * Records the fee-raised replacement `rawTx` of the payout `previousHash` (same nonce), sent at
 * `block`; false when the row no longer holds that payout.
 */
export async function recordReplacement(
  q: Queryable,
  id: number,
  previousHash: string,
  replacement: { rawTx: string; txHash: string; block: bigint },
): Promise<boolean> {
  const res = await q.query(
    `UPDATE withdrawals SET raw_tx = $3, tx_hash = $4, payout_sent_block = $5,
       payout_replacements = payout_replacements + 1, updated_at = now()
     WHERE id = $1 AND tx_hash = $2 AND status = 1`,
    [id, previousHash, replacement.rawTx, replacement.txHash, String(replacement.block)],
  )
  return !!res.rowCount
}

/** The block the payout was mined in; null when a reorg dropped it. */
export async function setTxBlock(q: Queryable, id: number, block: bigint | null): Promise<void> {
  await q.query('UPDATE withdrawals SET tx_block = $2 WHERE id = $1', [
    id,
    block === null ? null : String(block),
  ])
}

/**
 * USDT `userId` asked to withdraw since `since`, counting every request not rejected (3),
 * failed (4) or cancelled (6).
 */
export async function withdrawnSince(q: Queryable, userId: number, since: Date): Promise<string> {
  const res = await q.query<{ total: string }>(
    `SELECT coalesce(sum(amount), 0)::text AS total FROM withdrawals
      WHERE user_id = $1 AND created_at >= $2 AND status NOT IN (3, 4, 6)`,
    [userId, since],
  )
  return res.rows[0]!.total
}
