import type { Queryable } from '../../db/transaction.ts'
import type { NodeType } from '@hope/api'

export async function addBoughtNode(q: Queryable, userId: number, type: number): Promise<void> {
  await q.query(`INSERT INTO node_holders (user_id, type, source) VALUES ($1, $2, 'bought')`, [
    userId,
    type,
  ])
}

/** An operator's grant: a node the member bought of that type becomes a granted one. */
export async function grantNode(q: Queryable, userId: number, type: number): Promise<void> {
  await q.query(
    `INSERT INTO node_holders (user_id, type, source) VALUES ($1, $2, 'granted')
     ON CONFLICT (user_id, type) DO UPDATE SET source = 'granted'`,
    [userId, type],
  )
}

/**
 * Every node holder a day's node rewards go to (robots left out), with the account each is
 * paid into: the shareholder account for granted tiers, the node account for bought nodes.
 */
export async function rewardedHolders(
  q: Queryable,
): Promise<{ userId: number; type: NodeType; account: number }[]> {
  const res = await q.query<{ user_id: string; type: NodeType; account: string }>(
    `SELECT n.user_id::text, n.type, a.id::text AS account
       FROM node_holders n JOIN users u ON u.id = n.user_id AND NOT u.is_robot
       JOIN ledger_accounts a ON a.user_id = n.user_id
        AND a.kind = CASE WHEN n.source = 'granted' THEN 'shareholder' ELSE 'node' END
      ORDER BY n.user_id, n.type`,
  )
  return res.rows.map((r) => ({
    userId: Number(r.user_id),
    type: r.type,
    account: Number(r.account),
  }))
}

/** Log types whose credits are rewards a user has received. */
export const EARNING_LOG_TYPES = [7, 8, 11, 4, 3, 10] as const

/**
 * What each reward log type has credited a user, in all and since `since`: one range of the
 * entries index per account of the user, summing credits only (the 20% part leaving for a pledge is a debit).
 */
export async function earningsOf(
  q: Queryable,
  userId: number,
  since: Date,
): Promise<{ logType: number; currency: 'USDT' | 'HOPE'; total: string; today: string }[]> {
  const res = await q.query<{
    logType: number
    currency: 'USDT' | 'HOPE'
    total: string
    today: string
  }>(
    `SELECT t.log_type AS "logType", a.currency, sum(e.amount)::text AS total,
            coalesce(sum(e.amount) FILTER (WHERE t.created_at >= $2), 0)::text AS today
       FROM ledger_entries e
       JOIN ledger_transfers t ON t.id = e.transfer_id
       JOIN ledger_accounts a ON a.id = e.account_id
      WHERE a.user_id = $1 AND e.user_id IS NOT NULL AND e.amount > 0
        AND t.log_type = ANY($3::smallint[])
      GROUP BY t.log_type, a.currency`,
    [userId, since, EARNING_LOG_TYPES],
  )
  return res.rows
}
