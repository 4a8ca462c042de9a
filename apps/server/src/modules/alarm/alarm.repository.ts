import type { AdminAlarm } from '@hope/api'
import type pg from 'pg'

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

/**
 * Raises the alarm named by `key` unless it is already raised (open or resolved): a job that
 * finds the same condition on every tick raises it once. True when it was raised now.
 */
export async function raiseAlarm(
  q: Queryable,
  alarm: { key: string; kind: string; message: string; detail?: object },
): Promise<boolean> {
  const res = await q.query(
    `INSERT INTO operator_alarms (key, kind, message, detail) VALUES ($1, $2, $3, $4)
     ON CONFLICT (key) DO NOTHING`,
    [alarm.key, alarm.kind, alarm.message, JSON.stringify(alarm.detail ?? {})],
  )
  return res.rowCount === 1
}

/** Closes the alarm named by `key`, if it is open: the condition has ended. */
export async function resolveAlarm(q: Queryable, key: string): Promise<void> {
  await q.query(
    'UPDATE operator_alarms SET resolved_at = now() WHERE key = $1 AND resolved_at IS NULL',
    [key],
  )
}

/** Closes every open alarm of `kind`: the condition they name has ended. */
export async function resolveAlarmsOfKind(q: Queryable, kind: string): Promise<number> {
  const res = await q.query(
    'UPDATE operator_alarms SET resolved_at = now() WHERE kind = $1 AND resolved_at IS NULL',
    [kind],
  )
  return res.rowCount ?? 0
}

/** The open alarms, newest first. */
export async function openAlarms(q: Queryable, limit = 50): Promise<AdminAlarm[]> {
  const res = await q.query<{
    id: number
    kind: string
    message: string
    detail: Record<string, unknown>
    raisedAt: Date
  }>(
    `SELECT id::int, kind, message, detail, raised_at AS "raisedAt" FROM operator_alarms
     WHERE resolved_at IS NULL ORDER BY raised_at DESC, id DESC LIMIT $1`,
    [limit],
  )
  return res.rows.map((r) => ({ ...r, raisedAt: r.raisedAt.toISOString() }))
}

export interface ClosedAlarm {
  id: number
  kind: string
  message: string
  detail: Record<string, unknown>
  raisedAt: Date
  resolvedAt: Date
  resolution: string
}

/**
 * Closes the open alarm `id` for an operator, with the reason; null when there is no open alarm
 * of that id (a concurrent close waits for the first and then finds it closed).
 */
export async function closeAlarm(
  q: Queryable,
  id: number,
  by: { operatorId: number; reason: string },
): Promise<ClosedAlarm | null> {
  const res = await q.query<ClosedAlarm>(
    `UPDATE operator_alarms SET resolved_at = now(), resolved_by = $2, resolution = $3
     WHERE id = $1 AND resolved_at IS NULL
     RETURNING id::int, kind, message, detail, raised_at AS "raisedAt",
               resolved_at AS "resolvedAt", resolution`,
    [id, by.operatorId, by.reason],
  )
  return res.rows[0] ?? null
}

/** Whether an alarm of this id was ever raised. */
export async function alarmExists(q: Queryable, id: number): Promise<boolean> {
  const res = await q.query('SELECT 1 FROM operator_alarms WHERE id = $1', [id])
  return res.rowCount === 1
}
