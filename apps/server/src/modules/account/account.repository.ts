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

/** The columns of a log row, over `e` (an entry with its account's kind and currency) and `t`. */
const LOG_COLUMNS = `e.id::text AS id, e.kind, e.currency, e.amount::text AS amount,
  e.balance_after::text AS "balanceAfter", t.log_type AS "logType", t.created_at AS "createdAt",
  (SELECT u.user_name FROM ledger_accounts o JOIN users u ON u.id = o.user_id
    WHERE o.id = CASE WHEN t.debit_account_id = e.account_id THEN t.credit_account_id ELSE t.debit_account_id END
      AND o.user_id <> e.user_id) AS counterparty`

/** Above every entry id: the cursor of the first page. */
const FIRST_PAGE = '9223372036854775807'

/**
 * A user's account log, newest first, from the entry with id below `before` on. Each account's
 * entries are one range of the (account_id, id) index: one account reads its range, all of
 * them read at most a page from each of the five and keep the newest. A page costs the same at
 * any depth and whatever the other accounts hold, and postings maintain one index of users'
 * entries, not two. Transfers and counterparties are read for the page's rows only. Named statements: each connection plans them once, and every condition
 * stays an index bound in that shared plan.
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
  const before = opts.before ?? FIRST_PAGE
  const logType = opts.logType ?? null
  const res =
    opts.kind === undefined
      ? await q.query<LogRow>({
          name: 'account_log',
          text: `SELECT ${LOG_COLUMNS}
                 FROM (
                   SELECT a.kind, a.currency, e.*
                   FROM ledger_accounts a
                   CROSS JOIN LATERAL (
                     SELECT e.id, e.account_id, e.user_id, e.transfer_id, e.amount, e.balance_after
                     FROM ledger_entries e
                     WHERE e.account_id = a.id AND e.user_id IS NOT NULL AND e.id < $2
                       AND ($3::smallint IS NULL OR EXISTS (
                         SELECT FROM ledger_transfers f WHERE f.id = e.transfer_id AND f.log_type = $3))
                     ORDER BY e.id DESC
                     LIMIT $4) e
                   WHERE a.user_id = $1
                   ORDER BY e.id DESC
                   LIMIT $4) e
                 JOIN ledger_transfers t ON t.id = e.transfer_id
                 ORDER BY e.id DESC`,
          values: [opts.userId, before, logType, opts.limit],
        })
      : await q.query<LogRow>({
          name: 'account_log_of_kind',
          text: `SELECT ${LOG_COLUMNS}
                 FROM (SELECT a.kind, a.currency, e.*
                       FROM ledger_entries e
                       JOIN ledger_accounts a ON a.id = e.account_id
                       WHERE e.account_id = (SELECT id FROM ledger_accounts WHERE user_id = $1 AND kind = $2)
                         AND e.user_id IS NOT NULL AND e.id < $3) e
                 JOIN ledger_transfers t ON t.id = e.transfer_id
                 WHERE ($4::smallint IS NULL OR t.log_type = $4)
                 ORDER BY e.id DESC
                 LIMIT $5`,
          values: [opts.userId, opts.kind, before, logType, opts.limit],
        })
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
