import type { Queryable } from '../../db/transaction.ts'
import type { VolumeLine } from './figures.rules.ts'

/** How far the volumes go: transfers up to `transferId` are counted, lines before `asOf`. */
export interface VolumeWatermark {
  transferId: string
  asOf: Date | null
}

/**
 * A point the volume job may count up to: every ledger transfer id handed out so far, and the
 * first transaction id not yet started when that was read (`xmax`). The ledger locks its
 * accounts (which gives the transaction its id) before it takes transfer ids, so once no
 * transaction older than `xmax` is running, no transfer with an id up to `transferId` can
 * still appear.
 */
export interface VolumeHorizon {
  transferId: string
  xmax: string
  takenAt: Date
}

/** Read in two statements, the transfer ids first: see `VolumeHorizon`. */
export async function takeHorizon(q: Queryable): Promise<VolumeHorizon> {
  const ids = await q.query<{ transferId: string; takenAt: Date }>(
    `SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('ledger_transfers', 'id')::regclass), 0)::text AS "transferId",
            clock_timestamp() AS "takenAt"`,
  )
  const snapshot = await q.query<{ xmax: string }>(
    'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax',
  )
  return { ...ids.rows[0]!, xmax: snapshot.rows[0]!.xmax }
}

/** Whether every transaction that could still add transfers below the horizon has ended. */
export async function horizonSettled(q: Queryable, horizon: VolumeHorizon): Promise<boolean> {
  const res = await q.query<{ settled: boolean }>(
    'SELECT pg_snapshot_xmin(pg_current_snapshot()) >= $1::xid8 AS settled',
    [horizon.xmax],
  )
  return res.rows[0]!.settled
}

/** The watermark, locked until the caller's transaction ends: one counter at a time. */
export async function lockWatermark(q: Queryable): Promise<VolumeWatermark> {
  const res = await q.query<VolumeWatermark>(
    `SELECT transfer_id::text AS "transferId", as_of AS "asOf"
     FROM account_volume_watermark FOR UPDATE`,
  )
  return res.rows[0]!
}

/**
 * The next batch: at most `limit` transfers after `after` up to `upTo` (the primary key's
 * range), and the posted lines of users' USDT accounts among them. `lastId` is the batch's
 * last transfer id, null when there is none.
 */
export async function usdtLinesAfter(
  q: Queryable,
  range: { after: string; upTo: string; limit: number },
): Promise<{ lastId: string | null; lines: VolumeLine[] }> {
  const last = await q.query<{ lastId: string | null }>(
    `SELECT max(id)::text AS "lastId"
     FROM (SELECT id FROM ledger_transfers WHERE id > $1 AND id <= $2 ORDER BY id LIMIT $3) batch`,
    [range.after, range.upTo, range.limit],
  )
  const lastId = last.rows[0]?.lastId ?? null
  if (lastId === null) return { lastId, lines: [] }
  const lines = await q.query<VolumeLine>(
    `SELECT e.user_id::int AS "userId", e.amount::text AS amount, t.log_type AS "logType"
     FROM ledger_transfers t
     JOIN ledger_entries e ON e.transfer_id = t.id AND e.user_id IS NOT NULL
     JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'usdt'
     WHERE t.id > $1 AND t.id <= $2`,
    [range.after, lastId],
  )
  return { lastId, lines: lines.rows }
}

/** Adds each user's batch volumes (decimal strings) to the stored totals. */
export async function addVolumes(
  q: Queryable,
  rows: { userId: number; trading: string; total: string }[],
): Promise<void> {
  if (!rows.length) return
  await q.query(
    `INSERT INTO account_volumes AS v (user_id, trading_usdt, total_usdt)
     SELECT * FROM unnest($1::bigint[], $2::numeric[], $3::numeric[])
     ON CONFLICT (user_id) DO UPDATE SET
       trading_usdt = v.trading_usdt + excluded.trading_usdt,
       total_usdt = v.total_usdt + excluded.total_usdt`,
    [rows.map((r) => r.userId), rows.map((r) => r.trading), rows.map((r) => r.total)],
  )
}

/** Moves the watermark (in the transaction that added the batch). */
export async function moveWatermark(q: Queryable, to: VolumeWatermark): Promise<void> {
  await q.query('UPDATE account_volume_watermark SET transfer_id = $1, as_of = $2', [
    to.transferId,
    to.asOf,
  ])
}

/** A user's volumes (zeros without a counted line) and the watermark's time, read together. */
export async function volumesOf(
  q: Queryable,
  userId: number,
): Promise<{ trading: string; total: string; asOf: Date | null }> {
  const res = await q.query<{ trading: string; total: string; asOf: Date | null }>(
    `SELECT coalesce(v.trading_usdt, 0)::text AS trading, coalesce(v.total_usdt, 0)::text AS total,
            w.as_of AS "asOf"
     FROM account_volume_watermark w LEFT JOIN account_volumes v ON v.user_id = $1`,
    [userId],
  )
  return res.rows[0]!
}
