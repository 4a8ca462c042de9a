import type { Queryable } from '../../db/transaction.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

/**
 * Every stored setting. Values travel as JSON text both ways: node-postgres would send a JS
 * array as a Postgres array and a string as bare text, so the repository parses and
 * serialises them itself.
 */
export async function listSettings(q: Queryable): Promise<{ key: string; value: unknown }[]> {
  const res = await q.query<{ key: string; json: string }>(
    'SELECT key, value::text AS json FROM settings',
  )
  return res.rows.map((r) => ({ key: r.key, value: JSON.parse(r.json) as unknown }))
}

/**
 * Holds the changes of one key to one at a time until the transaction ends, the first one
 * too (a key never set has no row to lock); then reads its stored value as JSON text (null
 * when unset).
 */
export async function lockSetting(q: Queryable, key: string): Promise<string | null> {
  await q.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_KEYS.settings, key])
  const res = await q.query<{ json: string }>(
    'SELECT value::text AS json FROM settings WHERE key = $1',
    [key],
  )
  return res.rows[0]?.json ?? null
}

export async function upsertSetting(
  q: Queryable,
  key: string,
  value: unknown,
  updatedBy: string,
): Promise<void> {
  await q.query(
    `INSERT INTO settings (key, value, updated_by) VALUES ($1, $2::jsonb, $3)
     ON CONFLICT (key) DO UPDATE
       SET value = excluded.value, updated_by = excluded.updated_by, updated_at = now()`,
    [key, JSON.stringify(value), updatedBy],
  )
}

/** Records a change; `oldJson` is the value before it as JSON text (null when it was unset). */
export async function insertSettingChange(
  q: Queryable,
  change: {
    key: string
    oldJson: string | null
    newValue: unknown
    changedBy: string
    reason: string | null
  },
): Promise<void> {
  await q.query(
    `INSERT INTO setting_changes (key, old_value, new_value, changed_by, reason)
     VALUES ($1, $2::jsonb, $3::jsonb, $4, $5)`,
    [change.key, change.oldJson, JSON.stringify(change.newValue), change.changedBy, change.reason],
  )
}
