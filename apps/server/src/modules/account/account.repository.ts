import type { AccountKind, LogType } from '@hope/api'
import type pg from 'pg'

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

export interface LogRow {
  id: string
  kind: AccountKind
  currency: 'USDT' | 'HOPE'
  amount: string
  balanceAfter: string
  logType: LogType
  counterparty: string | null
  createdAt: Date
}

/**
 * A user's account log, newest first, from the entry with id below `before` on: one range of
 * the (user_id, id) index, so a page costs the same at any depth.
 */
export async function accountLog(
  q: Queryable,
  opts: {
    userId: number
    kind?: AccountKind | undefined
    logType?: number | undefined
    before?: string | undefined
    limit: number
  },
): Promise<LogRow[]> {
  const res = await q.query<LogRow>(
    `SELECT e.id::text AS id, a.kind, a.currency, e.amount::text AS amount, e.balance_after::text AS "balanceAfter",
            t.log_type AS "logType", t.created_at AS "createdAt",
            (SELECT u.user_name FROM ledger_accounts o JOIN users u ON u.id = o.user_id
              WHERE o.id = CASE WHEN t.debit_account_id = e.account_id THEN t.credit_account_id ELSE t.debit_account_id END
                AND o.user_id <> e.user_id) AS counterparty
     FROM ledger_entries e
     JOIN ledger_accounts a ON a.id = e.account_id
     JOIN ledger_transfers t ON t.id = e.transfer_id
     WHERE e.user_id = $1
       AND ($2::text IS NULL OR a.kind = $2)
       AND ($3::smallint IS NULL OR t.log_type = $3)
       AND ($4::bigint IS NULL OR e.id < $4)
     ORDER BY e.id DESC
     LIMIT $5`,
    [opts.userId, opts.kind ?? null, opts.logType ?? null, opts.before ?? null, opts.limit],
  )
  return res.rows
}

export async function recipientByAddress(
  q: Queryable,
  address: string,
): Promise<{ id: number; userName: string; ancestorIds: number[] } | undefined> {
  const res = await q.query<{ id: string; userName: string; ancestorIds: string[] }>(
    `SELECT id::text, user_name AS "userName", ancestor_ids::text[] AS "ancestorIds" FROM users WHERE user_name = $1`,
    [address.toLowerCase()],
  )
  const row = res.rows[0]
  return (
    row && { id: Number(row.id), userName: row.userName, ancestorIds: row.ancestorIds.map(Number) }
  )
}
