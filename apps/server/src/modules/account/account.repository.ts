import type { AccountKind, AccountLogStatus, LogType, WithdrawalPart } from '@hope/api'
import type pg from 'pg'

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

export interface LogRow {
  id: string
  kind: AccountKind
  currency: 'USDT' | 'HOPE'
  amount: string
  balanceAfter: string
  logType: LogType
  status: AccountLogStatus
  withdrawal: WithdrawalPart | null
  counterparty: string | null
  createdAt: Date
}

/** Above every transfer id: the cursor of the first page. */
const FIRST_PAGE = { transferId: '9223372036854775807', accountId: '0' }

/**
 * A log cursor: the id of the last line shown, `<transfer id>.<account id>` (a bare number, as
 * older clients send, is a transfer id).
 */
export function parseLogCursor(cursor: string | undefined): {
  transferId: string
  accountId: string
} {
  if (cursor === undefined) return FIRST_PAGE
  const [transferId = '0', accountId = '0'] = cursor.split('.')
  return { transferId, accountId }
}

/**
 * A user's account log, newest first, below the cursor's line. What the user sees:
 * - every posted entry on the user's accounts, as it moved the balance (status `done`);
 * - a reservation: a pending transfer out of the user's account (a withdrawal's amount, its
 *   fee) is one line from the moment it is made, at that time and with the amount reserved,
 *   `pending` until the ledger posts or voids it, then `done` (with the balance after the post)
 *   or `refunded`. The post's own entry is that line, not a second one;
 * - a refund: the void of a reservation is a line of its own, + the amount, when it happens,
 *   `done`, with the balance then (a reservation never moved the posted balance).
 * A withdrawal's amount (log 13) and every refund are shown as log type 1, the spec's
 * "withdrawal and refund"; a reserved fee stays log type 14; `withdrawal` says which part of a
 * withdrawal a line is (its amount or fee held, or either given back).
 *
 * Every line carries the available balance after it (posted balance minus what is held), so
 * each line's balance is the one before it plus its amount: a reservation lowers it, a refund
 * raises it back, a payout of what was held leaves it (migration 0041). Two index lookups a line.
 *
 * Lines are ordered by (transfer id, account id): each account's entries and reservations are
 * one range of an index (migration 0033), a page reads at most a page from each of the user's
 * accounts and keeps the newest, so a page costs the same at any depth. Transfers, resolutions
 * and counterparties are read for the page's lines only.
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
  const before = parseLogCursor(opts.before)
  const res = await q.query<LogRow>({
    name: 'account_log',
    text: `WITH lines AS (
             SELECT a.id AS account_id, a.user_id, a.kind, a.currency, l.*
             FROM ledger_accounts a
             CROSS JOIN LATERAL (
               (SELECT e.transfer_id AS tid, e.amount, e.balance_after, NULL::text AS two_phase
                FROM ledger_entries e
                WHERE e.account_id = a.id AND e.user_id IS NOT NULL
                  AND e.transfer_id < $3::bigint + (a.id < $4::bigint)::int
                  -- the post of a reservation is the reservation's line
                  AND ((e.amount > 0 AND $5::smallint IS NULL) OR EXISTS (
                    SELECT FROM ledger_transfers f
                    WHERE f.id = e.transfer_id AND (f.kind <> 'post_pending' OR e.amount > 0)
                      AND ($5::smallint IS NULL OR f.log_type = $5)))
                ORDER BY e.transfer_id DESC
                LIMIT $6)
               UNION ALL
               (SELECT p.id, p.amount, NULL, p.kind
                FROM ledger_transfers p
                WHERE p.debit_account_id = a.id AND p.kind IN ('pending', 'void_pending')
                  AND p.id < $3::bigint + (a.id < $4::bigint)::int
                  AND ($5::smallint IS NULL OR $5 = CASE
                    WHEN p.kind = 'void_pending' OR p.log_type = 13 THEN 1 ELSE p.log_type END)
                ORDER BY p.id DESC
                LIMIT $6)
             ) l
             WHERE a.user_id = $1 AND ($2::text IS NULL OR a.kind = $2)
             ORDER BY l.tid DESC, a.id DESC
             LIMIT $6
           )
           SELECT l.tid::text || '.' || l.account_id::text AS id, l.kind, l.currency,
             CASE WHEN l.two_phase IS NULL THEN l.amount
                  WHEN l.two_phase = 'void_pending' THEN l.amount
                  ELSE -coalesce(posted.amount, l.amount) END::text AS amount,
             (coalesce(l.balance_after, (
                SELECT b.balance_after FROM ledger_entries b
                WHERE b.account_id = l.account_id AND b.user_id IS NOT NULL AND b.transfer_id <= l.tid
                ORDER BY b.transfer_id DESC LIMIT 1), 0)
              - coalesce((
                SELECT h.debit_pending_after FROM ledger_transfers h
                WHERE h.debit_account_id = l.account_id AND h.debit_pending_after IS NOT NULL
                  AND h.id <= l.tid
                ORDER BY h.id DESC LIMIT 1), 0))::text AS "balanceAfter",
             CASE WHEN t.log_type NOT IN (13, 14) THEN NULL
                  WHEN l.two_phase = 'pending' THEN CASE t.log_type WHEN 13 THEN 'amount' ELSE 'fee' END
                  WHEN l.two_phase = 'void_pending'
                    THEN CASE t.log_type WHEN 13 THEN 'amountRefund' ELSE 'feeRefund' END
                  END AS withdrawal,
             CASE WHEN l.two_phase = 'void_pending' OR (l.two_phase = 'pending' AND t.log_type = 13)
                  THEN 1 ELSE t.log_type END AS "logType",
             CASE WHEN l.two_phase = 'pending' THEN coalesce(r.status, 'pending')
                  ELSE 'done' END AS status,
             t.created_at AS "createdAt",
             (SELECT u.user_name FROM ledger_accounts o JOIN users u ON u.id = o.user_id
               WHERE o.id = CASE WHEN t.debit_account_id = l.account_id THEN t.credit_account_id
                                 ELSE t.debit_account_id END
                 AND o.user_id <> l.user_id) AS counterparty
           FROM lines l
           JOIN ledger_transfers t ON t.id = l.tid
           LEFT JOIN LATERAL (
             SELECT r.id, r.amount,
               CASE r.kind WHEN 'post_pending' THEN 'done' ELSE 'refunded' END AS status
             FROM ledger_transfers r WHERE l.two_phase = 'pending' AND r.pending_id = l.tid) r ON true
           LEFT JOIN LATERAL (
             SELECT r.amount FROM ledger_entries e
             WHERE r.status = 'done' AND e.transfer_id = r.id AND e.account_id = l.account_id) posted ON true
           ORDER BY l.tid DESC, l.account_id DESC`,
    values: [
      opts.userId,
      opts.kind ?? null,
      before.transferId,
      before.accountId,
      opts.logType ?? null,
      opts.limit,
    ],
  })
  return res.rows
}

/**
 * The HOPE a user holds outside the accounts: in active consensus positions, and what pledge
 * items have still to release (what the proof of liabilities counts beside the accounts).
 */
export async function hopeOutsideAccounts(
  q: Queryable,
  userId: number,
): Promise<{ staked: string; pledged: string }> {
  const res = await q.query<{ staked: string; pledged: string }>({
    name: 'hope_outside_accounts',
    text: `SELECT (SELECT coalesce(sum(hope), 0) FROM stake_positions
                    WHERE user_id = $1 AND status = 'active')::text AS staked,
                  (SELECT coalesce(sum(amount - released), 0) FROM pledge_items
                    WHERE user_id = $1 AND NOT redeemed)::text AS pledged`,
    values: [userId],
  })
  return res.rows[0]!
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
