import type { RechargeStatus } from '@hope/api'
import type { Queryable } from '../../db/transaction.ts'

export interface RechargeRow {
  txHash: string
  amount: string | null
  status: RechargeStatus
  block: string | null
  createdAt: Date
}

/** A user's recharges: deposits credited or on their way, and posted hashes not yet seen. */
const RECHARGES_SQL = `
  SELECT tx_hash AS "txHash", amount, status, block, created_at AS "createdAt" FROM (
    SELECT d.tx_hash, d.amount::text AS amount,
           CASE WHEN d.status IN ('credited', 'failed') THEN d.status ELSE 'on_chain' END AS status,
           CASE WHEN d.status = 'reorged' THEN NULL ELSE d.block_number::text END AS block,
           coalesce((SELECT c.created_at FROM recharge_claims c WHERE c.chain_id = d.chain_id AND c.tx_hash = d.tx_hash AND c.user_id = d.user_id), d.created_at) AS created_at
    FROM deposits d WHERE d.user_id = $1 AND d.chain_id = $2
    UNION ALL
    SELECT c.tx_hash, NULL, c.status, NULL, c.created_at FROM recharge_claims c
    WHERE c.user_id = $1 AND c.chain_id = $2
      AND NOT EXISTS (SELECT 1 FROM deposits d WHERE d.chain_id = c.chain_id AND d.tx_hash = c.tx_hash AND d.user_id = c.user_id)
  ) r`

/** Records a user's claim of a hash; a second claim of the same (user, hash) changes nothing. */
export async function insertClaim(
  q: Queryable,
  claim: { userId: number; chainId: number; txHash: string },
): Promise<void> {
  await q.query(
    `INSERT INTO recharge_claims (user_id, chain_id, tx_hash, status) VALUES ($1, $2, $3, 'on_chain')
     ON CONFLICT (chain_id, tx_hash, user_id) DO NOTHING`,
    [claim.userId, claim.chainId, claim.txHash],
  )
}

/** Whether `userId` has claimed this hash already. */
export async function hasClaim(
  q: Queryable,
  claim: { userId: number; chainId: number; txHash: string },
): Promise<boolean> {
  const res = await q.query(
    `SELECT 1 FROM recharge_claims WHERE chain_id = $1 AND tx_hash = $2 AND user_id = $3`,
    [claim.chainId, claim.txHash, claim.userId],
  )
  return res.rowCount! > 0
}

/** A user's claims the watcher has not yet matched to a deposit nor failed. */
export async function countPendingClaims(
  q: Queryable,
  userId: number,
  chainId: number,
): Promise<number> {
  const res = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM recharge_claims c
     WHERE c.user_id = $1 AND c.chain_id = $2 AND c.status = 'on_chain'
       AND NOT EXISTS (SELECT 1 FROM deposits d WHERE d.chain_id = c.chain_id AND d.tx_hash = c.tx_hash)`,
    [userId, chainId],
  )
  return res.rows[0]!.n
}

export async function findRecharge(
  q: Queryable,
  userId: number,
  chainId: number,
  txHash: string,
): Promise<RechargeRow | undefined> {
  const res = await q.query<RechargeRow>(`${RECHARGES_SQL} WHERE r.tx_hash = $3 LIMIT 1`, [
    userId,
    chainId,
    txHash,
  ])
  return res.rows[0]
}

/** A page of a user's recharges, newest first. */
export async function listRecharges(
  q: Queryable,
  userId: number,
  chainId: number,
  page: { limit: number; offset: number },
): Promise<RechargeRow[]> {
  const res = await q.query<RechargeRow>(
    `${RECHARGES_SQL} ORDER BY r.created_at DESC, r.tx_hash LIMIT $3 OFFSET $4`,
    [userId, chainId, page.limit, page.offset],
  )
  return res.rows
}

export async function countRecharges(
  q: Queryable,
  userId: number,
  chainId: number,
): Promise<number> {
  const res = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${RECHARGES_SQL}) t`, [
    userId,
    chainId,
  ])
  return res.rows[0]!.n
}

export interface OpenClaimRow {
  id: number
  userId: number
  txHash: string
  /** Posted more than a day ago. */
  old: boolean
}

/** Claims still on chain that no deposit of their user answers, oldest first, 200 at most. */
export async function listUnansweredClaims(q: Queryable, chainId: number): Promise<OpenClaimRow[]> {
  const res = await q.query<OpenClaimRow>(
    `SELECT c.id::int, c.user_id::int AS "userId", c.tx_hash AS "txHash", c.created_at < now() - interval '1 day' AS old
     FROM recharge_claims c
     WHERE c.chain_id = $1 AND c.status = 'on_chain'
       AND NOT EXISTS (SELECT 1 FROM deposits d WHERE d.chain_id = c.chain_id AND d.tx_hash = c.tx_hash AND d.user_id = c.user_id)
     ORDER BY c.id LIMIT 200`,
    [chainId],
  )
  return res.rows
}

export async function failClaim(q: Queryable, id: number, failure: string): Promise<void> {
  await q.query(
    `UPDATE recharge_claims SET status = 'failed', failure = $2 WHERE id = $1 AND status = 'on_chain'`,
    [id, failure],
  )
}

/** Fails `userId`'s own claim of a hash still on chain. */
export async function failClaimOfUser(
  q: Queryable,
  claim: { chainId: number; txHash: string; userId: number },
  failure: string,
): Promise<void> {
  await q.query(
    `UPDATE recharge_claims SET status = 'failed', failure = $4
     WHERE chain_id = $1 AND tx_hash = $2 AND user_id = $3 AND status = 'on_chain'`,
    [claim.chainId, claim.txHash, claim.userId, failure],
  )
}
