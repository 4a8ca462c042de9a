import type { Queryable } from '../db/transaction.ts'
import { CHAIN_ALARM_KINDS } from '../modules/reconcile/reconcile.rules.ts'

/** What the metrics read from the books at scrape time, in one round trip. */
export interface OpsFigures {
  /** The newest ledger transfer id (ids are given in order): transfers recorded. */
  transfers: string
  /** The last block the deposit watcher scanned on the configured chain, if it has. */
  scannedBlock: string | null
  /** Withdrawals not yet final by state ('0', '1', '5'). */
  openWithdrawals: Record<string, number>
  oldestOpenSeconds: number | null
  /** The newest published proof-of-liabilities snapshot: its users; its age, or the books' age before the first. */
  porUsers: number | null
  porTakenAgeSeconds: number | null
  /** Users registered by that snapshot's time. */
  usersAtSnapshot: number | null
  /** Open operator alarms of the chain scan, by kind (kinds with none left out). */
  chainAlarmsOpen: Record<string, number>
  /** Payouts unmined with their fees at the cap (open payout_stuck alarms). */
  payoutsStuck: number
}

/**
 * Read-only figures for `/metrics`. Each part is an index lookup or a scan of open rows only
 * (withdrawals_open_idx, operator_alarms_open_idx), except the users counted by the snapshot's
 * time, a count of the users table once per scrape.
 */
export async function readOpsFigures(q: Queryable, chainId: number | null): Promise<OpsFigures> {
  const res = await q.query<{
    transfers: string
    scanned_block: string | null
    open_withdrawals: Record<string, number> | null
    oldest_open_seconds: number | null
    por_users: number | null
    por_age_seconds: number | null
    users_at_snapshot: number | null
    chain_alarms_open: Record<string, number> | null
    payouts_stuck: number
  }>(
    `WITH por AS (
       SELECT users, taken_at FROM por_snapshots WHERE status = 'published' ORDER BY id DESC LIMIT 1
     )
     SELECT
       (SELECT coalesce(max(id), 0) FROM ledger_transfers)::text AS transfers,
       (SELECT block_number FROM chain_cursors WHERE chain_id = $1)::text AS scanned_block,
       (SELECT json_object_agg(status, n) FROM (
          SELECT status, count(*)::int AS n FROM withdrawals WHERE status IN (0, 1, 5) GROUP BY status
        ) w) AS open_withdrawals,
       (SELECT extract(epoch FROM now() - min(created_at))::float8
          FROM withdrawals WHERE status IN (0, 1, 5)) AS oldest_open_seconds,
       (SELECT users FROM por) AS por_users,
       coalesce(
         (SELECT extract(epoch FROM now() - taken_at)::float8 FROM por),
         (SELECT extract(epoch FROM now() - min(created_at))::float8 FROM users)
       ) AS por_age_seconds,
       (SELECT count(*)::int FROM users WHERE created_at <= (SELECT taken_at FROM por)) AS users_at_snapshot,
       (SELECT json_object_agg(kind, n) FROM (
          SELECT kind, count(*)::int AS n FROM operator_alarms
           WHERE resolved_at IS NULL AND kind = ANY ($2::text[]) GROUP BY kind
        ) a) AS chain_alarms_open,
       (SELECT count(*)::int FROM operator_alarms
         WHERE resolved_at IS NULL AND kind = 'payout_stuck') AS payouts_stuck`,
    [chainId, CHAIN_ALARM_KINDS],
  )
  const r = res.rows[0]!
  return {
    transfers: r.transfers,
    scannedBlock: r.scanned_block,
    openWithdrawals: r.open_withdrawals ?? {},
    oldestOpenSeconds: r.oldest_open_seconds,
    porUsers: r.por_users,
    porTakenAgeSeconds: r.por_age_seconds,
    usersAtSnapshot: r.users_at_snapshot,
    chainAlarmsOpen: r.chain_alarms_open ?? {},
    payoutsStuck: r.payouts_stuck,
  }
}
