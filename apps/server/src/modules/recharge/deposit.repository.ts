import type { Queryable } from '../../db/transaction.ts'
import type { DepositStatus } from './deposit.rules.ts'

/** Where a deposit was seen on chain, as the watcher records it. */
export interface DepositSighting {
  chainId: number
  txHash: string
  logIndex: number
  blockNumber: bigint
  blockHash: string
  token: string
  fromAddress: string
  amount: string
}

/**
 * Moves a deposit from `from` to `to` (a row in another state is left alone); `clearPending`
 * forgets its pending transfer. Whether the move is allowed is the caller's rule to check.
 */
export async function moveDeposit(
  q: Queryable,
  id: number,
  from: DepositStatus,
  to: DepositStatus,
  opts: { clearPending?: boolean } = {},
): Promise<void> {
  const clear = opts.clearPending ? ', pending_transfer_id = NULL' : ''
  await q.query(
    `UPDATE deposits SET status = $2, updated_at = now() ${clear} WHERE id = $1 AND status = $3`,
    [id, to, from],
  )
}

/** The newest `limit` block hashes kept for `chainId`, highest first. */
export async function listRecentBlocks(
  q: Queryable,
  chainId: number,
  limit: number,
): Promise<{ number: bigint; hash: string }[]> {
  const res = await q.query<{ number: string; hash: string }>(
    'SELECT b.number::text AS number, b.hash FROM chain_blocks b WHERE b.chain_id = $1 ORDER BY b.number DESC LIMIT $2',
    [chainId, limit],
  )
  return res.rows.map((r) => ({ number: BigInt(r.number), hash: r.hash }))
}

/** Deposits held or credited in blocks above `block`: what a reorg down to it drops. */
export async function listDepositsAbove(
  q: Queryable,
  chainId: number,
  block: bigint,
): Promise<{ id: number; pending: string; status: DepositStatus }[]> {
  const res = await q.query<{ id: number; pending: string; status: DepositStatus }>(
    `SELECT id::int, pending_transfer_id::text AS pending, status FROM deposits
     WHERE chain_id = $1 AND block_number > $2 AND status IN ('on_chain', 'credited')`,
    [chainId, String(block)],
  )
  return res.rows
}

/** Forgets the block hashes above `block` and moves the scan cursor back to it at most. */
export async function rewindTo(q: Queryable, chainId: number, block: bigint): Promise<void> {
  await q.query('DELETE FROM chain_blocks WHERE chain_id = $1 AND number > $2', [
    chainId,
    String(block),
  ])
  await q.query(
    'UPDATE chain_cursors SET block_number = LEAST(block_number, $2) WHERE chain_id = $1',
    [chainId, String(block)],
  )
}

export async function setPendingTransfer(
  q: Queryable,
  id: number,
  pendingTransferId: number | string,
): Promise<void> {
  await q.query('UPDATE deposits SET pending_transfer_id = $2 WHERE id = $1', [
    id,
    pendingTransferId,
  ])
}

/** The deposit of one log, locked until the transaction ends. */
export async function lockDeposit(
  q: Queryable,
  chainId: number,
  txHash: string,
  logIndex: number,
): Promise<{ id: number; status: DepositStatus } | undefined> {
  const res = await q.query<{ id: number; status: DepositStatus }>(
    'SELECT id::int, status FROM deposits WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 FOR UPDATE',
    [chainId, txHash, logIndex],
  )
  return res.rows[0]
}

/**
 * Records a deposit: `on_chain` (held for `userId`), `unattributed` (no user sent it) or
 * `failed` with its `failure`.
 */
export async function insertDeposit(
  q: Queryable,
  seen: DepositSighting,
  state:
    | { status: 'on_chain'; userId: number }
    | { status: 'unattributed' }
    | { status: 'failed'; userId: number | null; failure: string },
): Promise<number> {
  const res = await q.query<{ id: number }>(
    `INSERT INTO deposits (chain_id, tx_hash, log_index, block_number, block_hash, token, from_address, amount, user_id, status, failure)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id::int`,
    [
      seen.chainId,
      seen.txHash,
      seen.logIndex,
      String(seen.blockNumber),
      seen.blockHash,
      seen.token,
      seen.fromAddress,
      seen.amount,
      'userId' in state ? state.userId : null,
      state.status,
      'failure' in state ? state.failure : null,
    ],
  )
  return res.rows[0]!.id
}

/** A reorged deposit seen again in `block`: recorded as failed with `failure`. */
export async function failReorgedDeposit(
  q: Queryable,
  id: number,
  failure: string,
  block: { number: bigint; hash: string },
): Promise<void> {
  await q.query(
    `UPDATE deposits SET status = 'failed', failure = $2, block_number = $3, block_hash = $4, updated_at = now()
     WHERE id = $1 AND status = 'reorged'`,
    [id, failure, String(block.number), block.hash],
  )
}

/** Where a re-included deposit now sits. */
export async function setDepositBlock(
  q: Queryable,
  id: number,
  block: { number: bigint; hash: string },
): Promise<void> {
  await q.query('UPDATE deposits SET block_number = $2, block_hash = $3 WHERE id = $1', [
    id,
    String(block.number),
    block.hash,
  ])
}

/** Deposits held on chain, locked, oldest first. */
export async function lockHeldDeposits(
  q: Queryable,
  chainId: number,
): Promise<{ id: number; block: bigint; pending: string }[]> {
  const res = await q.query<{ id: number; block: string; pending: string }>(
    `SELECT id::int, block_number::text AS block, pending_transfer_id::text AS pending FROM deposits
     WHERE chain_id = $1 AND status = 'on_chain' ORDER BY id FOR UPDATE`,
    [chainId],
  )
  return res.rows.map((r) => ({ id: r.id, block: BigInt(r.block), pending: r.pending }))
}

/** Whether any deposit comes from the transaction `txHash`. */
export async function depositOfTxExists(
  q: Queryable,
  chainId: number,
  txHash: string,
): Promise<boolean> {
  const res = await q.query('SELECT 1 FROM deposits WHERE chain_id = $1 AND tx_hash = $2', [
    chainId,
    txHash,
  ])
  return !!res.rowCount
}

/** The last block scanned for deposits on `chainId`, null before the first scan. */
export async function readCursor(q: Queryable, chainId: number): Promise<bigint | null> {
  const res = await q.query<{ n: string }>(
    'SELECT block_number::text AS n FROM chain_cursors WHERE chain_id = $1',
    [chainId],
  )
  return res.rows[0] ? BigInt(res.rows[0].n) : null
}

export async function saveCursor(q: Queryable, chainId: number, block: bigint): Promise<void> {
  await q.query(
    `INSERT INTO chain_cursors (chain_id, block_number) VALUES ($1, $2)
     ON CONFLICT (chain_id) DO UPDATE SET block_number = EXCLUDED.block_number`,
    [chainId, String(block)],
  )
}

export async function saveBlockHash(
  q: Queryable,
  chainId: number,
  block: bigint,
  hash: string,
): Promise<void> {
  await q.query(
    `INSERT INTO chain_blocks (chain_id, number, hash) VALUES ($1, $2, $3)
     ON CONFLICT (chain_id, number) DO UPDATE SET hash = EXCLUDED.hash`,
    [chainId, String(block), hash],
  )
}

/** Forgets the block hashes below `block`. */
export async function pruneBlocksBelow(
  q: Queryable,
  chainId: number,
  block: bigint,
): Promise<void> {
  await q.query('DELETE FROM chain_blocks WHERE chain_id = $1 AND number < $2', [
    chainId,
    String(block),
  ])
}

/** Whether any deposit on `chainId` is held, waiting for its depth. */
export async function hasHeldDeposits(q: Queryable, chainId: number): Promise<boolean> {
  const res = await q.query(
    `SELECT 1 FROM deposits WHERE chain_id = $1 AND status = 'on_chain' LIMIT 1`,
    [chainId],
  )
  return !!res.rowCount
}

/**
 * Marks a run of the deposit scan now, unless one ran less than `gapMs` ago: false then (the
 * caller skips its run). Before the first scan there is nothing to mark, and the run goes on.
 */
export async function claimScanRun(q: Queryable, chainId: number, gapMs: number): Promise<boolean> {
  const marked = await q.query(
    `UPDATE chain_cursors SET scanned_at = now()
     WHERE chain_id = $1
       AND (scanned_at IS NULL OR scanned_at < now() - make_interval(secs => $2::float8 / 1000))`,
    [chainId, gapMs],
  )
  if (marked.rowCount) return true
  return (await readCursor(q, chainId)) === null
}
