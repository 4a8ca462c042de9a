import type { AccountChunk, NodeChunk, NodeRange } from '@hope/por-verify'
import type pg from 'pg'
import { selectPage, type PageAsked } from '../../db/page.ts'
import type { Queryable } from '../../db/transaction.ts'
import type { UserBooks } from './por.rules.ts'

/**
 * Opens the liabilities read: the caller's transaction sees one state of the books from here on
 * (REPEATABLE READ, read only), so every user's balances and the in-flight line agree.
 */
export async function beginLiabilitiesRead(q: pg.PoolClient, snapshot?: string): Promise<void> {
  await q.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
  if (snapshot !== undefined) {
    if (!/^[0-9A-F]+-[0-9A-F]+-[0-9]+$/i.test(snapshot)) throw new Error('not a snapshot id')
    await q.query(`SET TRANSACTION SNAPSHOT '${snapshot}'`)
  }
}

/**
 * The moment a snapshot cuts the ledger at: new transfers wait (a SHARE lock on
 * ledger_transfers) until those in flight have committed, then the moment is exported for the
 * reading transaction to take (`beginLiabilitiesRead`), and `release` lets transfers go on. So
 * every transfer at or before the newest one visible at the cut is in it.
 */
export async function openLedgerCut(
  pool: pg.Pool,
): Promise<{ snapshot: string; release(): Promise<void> }> {
  // A lock request waiting in the queue holds back every writer behind it; one of those may
  // hold what a transfer in flight waits for, a cycle PostgreSQL would break by failing a user's
  // transaction. So the cut waits a short while only (less than deadlock_timeout), steps aside,
  // and tries again: it never stands in line long enough to be part of a cycle.
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect()
    try {
      await client.query('BEGIN')
      await client.query(`SET LOCAL lock_timeout = '200ms'`)
      await client.query('LOCK TABLE ledger_transfers IN SHARE MODE')
      const res = await client.query<{ snapshot: string }>(
        'SELECT pg_export_snapshot() AS snapshot',
      )
      let open = true
      return {
        snapshot: res.rows[0]!.snapshot,
        async release() {
          if (!open) return
          open = false
          try {
            await client.query('COMMIT')
          } finally {
            client.release()
          }
        },
      }
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {})
      client.release()
      // 55P03: lock_not_available, the short wait ran out.
      if ((e as { code?: string }).code !== '55P03' || attempt >= LEDGER_CUT_ATTEMPTS) throw e
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 250))
    }
  }
}

/** Tries at the cut before the snapshot gives up until its next run. */
const LEDGER_CUT_ATTEMPTS = 50

/** The newest ledger transfer the reading transaction sees: the snapshot's ledger position. */
export async function ledgerPosition(q: Queryable): Promise<string> {
  const res = await q.query<{ id: string }>(
    'SELECT coalesce(max(id), 0)::text AS id FROM ledger_transfers',
  )
  return res.rows[0]!.id
}

/**
 * A user's account balances as their account log showed them at ledger position `position`:
 * each account's balance after its last entry at or before it (0 before any).
 */
export async function accountsAtPosition(
  q: Queryable,
  userId: number,
  position: string,
): Promise<{ kind: string; balance: string }[]> {
  const res = await q.query<{ kind: string; balance: string }>(
    `SELECT a.kind,
            coalesce((SELECT e.balance_after FROM ledger_entries e
                       WHERE e.account_id = a.id AND e.user_id IS NOT NULL AND e.transfer_id <= $2
                       ORDER BY e.transfer_id DESC LIMIT 1), 0)::text AS balance
       FROM ledger_accounts a WHERE a.user_id = $1 ORDER BY a.kind`,
    [userId, position],
  )
  return res.rows
}

/**
 * A page of users' books, by user id after `afterId`: the posted balances of their USDT and HOPE
 * accounts, the HOPE of their active positions and what their pledge items still owe them.
 */
export async function userBooksPage(
  q: Queryable,
  afterId: number,
  limit: number,
): Promise<(UserBooks & { id: number })[]> {
  const res = await q.query<UserBooks & { id: string }>(
    `SELECT u.id::text AS id, u.user_name AS address,
            a.usdt::text AS "usdtAccounts", a.hope::text AS "hopeAccounts",
            coalesce(p.hope, 0)::text AS "positionsHope", coalesce(i.owed, 0)::text AS "pledgesHope"
       FROM (SELECT id, user_name FROM users WHERE id > $1 ORDER BY id LIMIT $2) u
       CROSS JOIN LATERAL (
         SELECT coalesce(sum(balance) FILTER (WHERE kind IN ('usdt', 'node', 'shareholder')), 0) AS usdt,
                coalesce(sum(balance) FILTER (WHERE kind IN ('community', 'split')), 0) AS hope
           FROM ledger_accounts WHERE user_id = u.id) a
       LEFT JOIN LATERAL (
         SELECT sum(hope) AS hope FROM stake_positions
          WHERE user_id = u.id AND status = 'active') p ON true
       LEFT JOIN LATERAL (
         SELECT sum(amount - released) AS owed FROM pledge_items
          WHERE user_id = u.id AND NOT redeemed) i ON true
      ORDER BY u.id`,
    [afterId, limit],
  )
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }))
}

/**
 * Withdrawals broadcast (a transaction recorded) or mined but not yet confirmed at the depth:
 * their money is still in the users' balances, and maybe already gone from the hot wallet.
 */
export async function inFlightWithdrawals(q: Queryable): Promise<string> {
  const res = await q.query<{ total: string }>(
    `SELECT coalesce(sum(amount), 0)::text AS total FROM withdrawals
      WHERE (status = 1 AND tx_hash IS NOT NULL) OR status = 5`,
  )
  return res.rows[0]!.total
}

export interface SnapshotRow {
  id: number
  chainId: number
  takenAt: Date
  blockNumber: number
  blockHash: string
  root: string
  users: number
  totalUsdt: string
  totalHope: string
  inFlightUsdt: string
  reserves: { address: string; balance: string }[]
  reservesUsdt: string
  tokenAddress: string
  tokenDecimals: number
  registryAddress: string
  /** The newest ledger transfer the snapshot counts (null for snapshots before it was kept). */
  ledgerPosition: string | null
  /** The tree's leaves, padding leaves included (0 for snapshots before it was kept). */
  leafCount: number
  status: 'pending' | 'published' | 'reorged'
  publishTxHash: string | null
  publishAttempts: number
  publishBlock: number | null
  publishedAt: Date | null
}

const SNAPSHOT_COLUMNS = `id::int, chain_id::int AS "chainId", taken_at AS "takenAt",
  block_number::int AS "blockNumber", block_hash AS "blockHash", root, users,
  total_usdt::text AS "totalUsdt", total_hope::text AS "totalHope",
  in_flight_usdt::text AS "inFlightUsdt", reserves, reserves_usdt::text AS "reservesUsdt",
  token_address AS "tokenAddress", token_decimals AS "tokenDecimals",
  registry_address AS "registryAddress", ledger_position::text AS "ledgerPosition",
  coalesce(leaf_count, 0) AS "leafCount", status, publish_tx_hash AS "publishTxHash",
  publish_attempts AS "publishAttempts", publish_block::int AS "publishBlock",
  published_at AS "publishedAt"`

/**
 * Makes `id` free for a new snapshot: the registry's next id, which it does not hold, so a row
 * with that id was never anchored there (reorganised away, taken for a registry since replaced,
 * or its transaction lost with a chain rolled back) and goes with its proofs. True when one went.
 */
export async function freeSnapshotId(q: Queryable, id: number): Promise<boolean> {
  await q.query(`UPDATE por_requests SET snapshot_id = NULL WHERE snapshot_id = $1`, [id])
  const res = await q.query(`DELETE FROM por_snapshots WHERE id = $1`, [id])
  return (res.rowCount ?? 0) > 0
}

export async function insertSnapshot(
  q: Queryable,
  s: Omit<
    SnapshotRow,
    'takenAt' | 'status' | 'publishTxHash' | 'publishAttempts' | 'publishBlock' | 'publishedAt'
  >,
): Promise<void> {
  await q.query(
    `INSERT INTO por_snapshots (id, chain_id, block_number, block_hash, root, users, total_usdt,
       total_hope, in_flight_usdt, reserves, reserves_usdt, token_address, token_decimals,
       registry_address, ledger_position, leaf_count)
     OVERRIDING SYSTEM VALUE
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [
      s.id,
      s.chainId,
      s.blockNumber,
      s.blockHash,
      s.root,
      s.users,
      s.totalUsdt,
      s.totalHope,
      s.inFlightUsdt,
      JSON.stringify(s.reserves),
      s.reservesUsdt,
      s.tokenAddress,
      s.tokenDecimals,
      s.registryAddress,
      s.ledgerPosition,
      s.leafCount,
    ],
  )
}

/** What a snapshot keeps to rebuild its proofs, besides the chunks. */
export interface StoredTree {
  /** The per-snapshot secret, sealed (por.seal.ts). */
  secret: string
  height: number
  storedFrom: number
  /** The signed reserve statements each proof carries. */
  reserves: { address: string; message: string; signature: string }[]
}

export async function insertTree(q: Queryable, snapshotId: number, t: StoredTree): Promise<void> {
  await q.query(
    `INSERT INTO por_trees (snapshot_id, secret, height, stored_from, reserves)
     VALUES ($1, $2, $3, $4, $5)`,
    [snapshotId, t.secret, t.height, t.storedFrom, JSON.stringify(t.reserves)],
  )
}

/** Chunks written per statement (about 1.6 MB). */
const CHUNK_BATCH = 1_000

/** Stores a tree's node chunks, a batch per statement; answers the bytes stored. */
export async function insertTreeNodes(
  q: Queryable,
  snapshotId: number,
  chunks: Iterable<NodeChunk>,
): Promise<number> {
  return insertBatches(chunks, async (batch) => {
    await q.query(
      `INSERT INTO por_tree_nodes (snapshot_id, level, first_index, nodes)
       SELECT $1, l, i, n FROM unnest($2::smallint[], $3::bigint[], $4::bytea[]) AS t (l, i, n)`,
      [
        snapshotId,
        batch.map((c) => c.level),
        batch.map((c) => c.firstIndex),
        batch.map((c) => Buffer.from(c.nodes.buffer, c.nodes.byteOffset, c.nodes.byteLength)),
      ],
    )
    return batch.reduce((n, c) => n + c.nodes.length, 0)
  })
}

/** Stores a tree's account chunks, a batch per statement; answers the bytes stored. */
export async function insertTreeAccounts(
  q: Queryable,
  snapshotId: number,
  chunks: Iterable<AccountChunk>,
): Promise<number> {
  return insertBatches(chunks, async (batch) => {
    await q.query(
      `INSERT INTO por_tree_accounts (snapshot_id, first_address, accounts)
       SELECT $1, f, a FROM unnest($2::bytea[], $3::bytea[]) AS t (f, a)`,
      [
        snapshotId,
        batch.map((c) => Buffer.from(c.firstAddress)),
        batch.map((c) =>
          Buffer.from(c.accounts.buffer, c.accounts.byteOffset, c.accounts.byteLength),
        ),
      ],
    )
    return batch.reduce((n, c) => n + c.accounts.length, 0)
  })
}

async function insertBatches<T>(
  items: Iterable<T>,
  insert: (batch: T[]) => Promise<number>,
): Promise<number> {
  let bytes = 0
  let batch: T[] = []
  for (const item of items) {
    batch.push(item)
    if (batch.length === CHUNK_BATCH) {
      bytes += await insert(batch)
      batch = []
    }
  }
  if (batch.length) bytes += await insert(batch)
  return bytes
}

/** What snapshot `id` keeps to rebuild its proofs, if it keeps them (within retention). */
export async function treeOf(q: Queryable, snapshotId: number): Promise<StoredTree | null> {
  const res = await q.query<StoredTree>(
    `SELECT secret, height, stored_from AS "storedFrom", reserves FROM por_trees
      WHERE snapshot_id = $1`,
    [snapshotId],
  )
  return res.rows[0] ?? null
}

/** The chunk of accounts an address falls in (the last whose first address is not after it). */
export async function accountChunkOf(
  q: Queryable,
  snapshotId: number,
  address: Uint8Array,
): Promise<Uint8Array | null> {
  const res = await q.query<{ accounts: Buffer }>(
    `SELECT accounts FROM por_tree_accounts WHERE snapshot_id = $1 AND first_address <= $2
      ORDER BY first_address DESC LIMIT 1`,
    [snapshotId, Buffer.from(address)],
  )
  return res.rows[0]?.accounts ?? null
}

/**
 * The node chunks covering `ranges`: for each, the chunks of its level whose nodes may fall in
 * it (from the last one starting at or before the range on). One statement, a few chunks a
 * range.
 */
export async function treeNodes(
  q: Queryable,
  snapshotId: number,
  ranges: readonly NodeRange[],
): Promise<NodeChunk[]> {
  const res = await q.query<{ level: number; firstIndex: string; nodes: Buffer }>(
    `SELECT DISTINCT ON (c.level, c.first_index)
            c.level, c.first_index::text AS "firstIndex", c.nodes
       FROM unnest($2::smallint[], $3::bigint[], $4::bigint[]) AS r (level, lo, hi)
       LEFT JOIN LATERAL (
         SELECT first_index AS start FROM por_tree_nodes
          WHERE snapshot_id = $1 AND level = r.level AND first_index <= r.lo
          ORDER BY first_index DESC LIMIT 1) s ON true
      CROSS JOIN LATERAL (
         SELECT level, first_index, nodes FROM por_tree_nodes
          WHERE snapshot_id = $1 AND level = r.level
            AND first_index >= coalesce(s.start, 0) AND first_index < r.hi
         OFFSET 0) c`,
    [snapshotId, ranges.map((r) => r.level), ranges.map((r) => r.from), ranges.map((r) => r.to)],
  )
  return res.rows.map((r) => ({
    level: r.level,
    firstIndex: Number(r.firstIndex),
    nodes: new Uint8Array(r.nodes.buffer, r.nodes.byteOffset, r.nodes.byteLength),
  }))
}

/** Stores a batch of proofs: `addresses[i]` gets `proofs[i]` (JSON text). */
export async function insertProofs(
  q: Queryable,
  snapshotId: number,
  addresses: string[],
  proofs: string[],
): Promise<void> {
  await q.query(
    `INSERT INTO por_proofs (snapshot_id, address, proof)
     SELECT $1, a, p::jsonb FROM unnest($2::text[], $3::text[]) AS t (a, p)`,
    [snapshotId, addresses, proofs],
  )
}

export async function snapshotById(q: Queryable, id: number): Promise<SnapshotRow | null> {
  const res = await q.query<SnapshotRow>(
    `SELECT ${SNAPSHOT_COLUMNS} FROM por_snapshots WHERE id = $1`,
    [id],
  )
  return res.rows[0] ?? null
}

export async function latestPublished(q: Queryable): Promise<SnapshotRow | null> {
  const res = await q.query<SnapshotRow>(
    `SELECT ${SNAPSHOT_COLUMNS} FROM por_snapshots WHERE status = 'published' ORDER BY id DESC LIMIT 1`,
  )
  return res.rows[0] ?? null
}

/** The snapshot waiting for its publish transaction, if any (there is at most one). */
export async function pendingSnapshot(q: Queryable): Promise<SnapshotRow | null> {
  const res = await q.query<SnapshotRow>(
    `SELECT ${SNAPSHOT_COLUMNS} FROM por_snapshots WHERE status = 'pending'`,
  )
  return res.rows[0] ?? null
}

/** When the newest snapshot that was not voided by a reorg was taken. */
export async function lastTakenAt(q: Queryable): Promise<Date | null> {
  const res = await q.query<{ at: Date | null }>(
    `SELECT max(taken_at) AS at FROM por_snapshots WHERE status <> 'reorged'`,
  )
  return res.rows[0]?.at ?? null
}

export async function snapshotsPage(
  q: Queryable,
  page: PageAsked,
): Promise<{ list: SnapshotRow[]; total: number }> {
  const { rows, total } = await selectPage<SnapshotRow>(
    q,
    { columns: SNAPSHOT_COLUMNS, table: 'por_snapshots', order: 'id DESC' },
    [],
    page,
  )
  return { list: rows, total }
}

/** Records a publish transaction just sent for a pending snapshot. */
export async function setPublishTx(q: Queryable, id: number, txHash: string): Promise<void> {
  await q.query(
    `UPDATE por_snapshots SET publish_tx_hash = $2, publish_attempts = publish_attempts + 1
      WHERE id = $1 AND status = 'pending'`,
    [id, txHash],
  )
}

export async function markPublished(q: Queryable, id: number, block: bigint): Promise<void> {
  await q.query(
    `UPDATE por_snapshots SET status = 'published', publish_block = $2, published_at = now()
      WHERE id = $1 AND status = 'pending'`,
    [id, block.toString()],
  )
}

export async function markReorged(q: Queryable, id: number): Promise<void> {
  await q.query(
    `UPDATE por_snapshots SET status = 'reorged' WHERE id = $1 AND status = 'pending'`,
    [id],
  )
}

/** The proof of `address` in snapshot `id`, if that snapshot still keeps its proofs. */
export async function proofOf(
  q: Queryable,
  id: number,
  address: string,
): Promise<Record<string, unknown> | null> {
  const res = await q.query<{ proof: Record<string, unknown> }>(
    'SELECT proof FROM por_proofs WHERE snapshot_id = $1 AND address = $2',
    [id, address],
  )
  return res.rows[0]?.proof ?? null
}

/**
 * Drops what rebuilds the proofs of snapshots taken before `before` (their trees, secrets
 * included, and proofs stored whole by older snapshots); the snapshot rows stay. Answers how
 * many users' proofs went.
 */
export async function dropProofsBefore(q: Queryable, before: Date): Promise<number> {
  const res = await q.query<{ dropped: string }>(
    `WITH old AS (SELECT id, users FROM por_snapshots WHERE taken_at < $1),
          trees AS (DELETE FROM por_trees WHERE snapshot_id IN (SELECT id FROM old)
                    RETURNING snapshot_id),
          proofs AS (DELETE FROM por_proofs WHERE snapshot_id IN (SELECT id FROM old) RETURNING 1)
     SELECT ((SELECT count(*) FROM proofs) +
             (SELECT coalesce(sum(users), 0) FROM old WHERE id IN (SELECT snapshot_id FROM trees)))::text
            AS dropped`,
    [before],
  )
  return Number(res.rows[0]!.dropped)
}

/** Opens a "publish now" request unless one is open; answers the open one either way. */
export async function requestSnapshot(
  q: Queryable,
  by: string,
): Promise<{ requestedAt: Date; created: boolean }> {
  const inserted = await q.query<{ requestedAt: Date }>(
    `INSERT INTO por_requests (requested_by) VALUES ($1)
     ON CONFLICT ((true)) WHERE done_at IS NULL DO NOTHING
     RETURNING requested_at AS "requestedAt"`,
    [by],
  )
  if (inserted.rows[0]) return { requestedAt: inserted.rows[0].requestedAt, created: true }
  const open = await q.query<{ requestedAt: Date }>(
    `SELECT requested_at AS "requestedAt" FROM por_requests WHERE done_at IS NULL`,
  )
  return { requestedAt: open.rows[0]!.requestedAt, created: false }
}

export async function openRequest(q: Queryable): Promise<boolean> {
  const res = await q.query('SELECT 1 FROM por_requests WHERE done_at IS NULL')
  return (res.rowCount ?? 0) > 0
}

export async function closeRequest(q: Queryable, snapshotId: number): Promise<void> {
  await q.query('UPDATE por_requests SET done_at = now(), snapshot_id = $1 WHERE done_at IS NULL', [
    snapshotId,
  ])
}
