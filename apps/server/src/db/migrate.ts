import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type pg from 'pg'
import { SOURCE_DIR } from '../paths.ts'
import { LOCK_KEYS } from './lock-keys.ts'

const MIGRATIONS_DIR = path.join(SOURCE_DIR, 'db/migrations')
/** Files of functions as they are now (`CREATE OR REPLACE`), applied after the migrations. */
export const FUNCTIONS_DIR = path.join(SOURCE_DIR, 'db/functions')
const LOCK_KEY = LOCK_KEYS.migrate

/**
 * Applies every `migrations/*.sql` not yet applied, in name order, each in its own
 * transaction, under an advisory lock so concurrent app processes do not race; then each
 * `functions/*.sql` whose content changed since it was last applied (`functions: false` leaves
 * them, for the test that the migrations end where the files do).
 */
export async function migrate(
  pool: pg.Pool,
  opts: { functions?: boolean } = {},
): Promise<string[]> {
  const client = await pool.connect()
  const applied: string[] = []
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY])
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    )
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map(
        (r) => r.name,
      ),
    )
    const files = fs
      .readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith('.sql'))
      .sort()
    for (const file of files) {
      if (done.has(file)) continue
      const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8')
      await client.query('BEGIN')
      try {
        await client.query(sql)
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file])
        await client.query('COMMIT')
        applied.push(file)
      } catch (e) {
        await client.query('ROLLBACK')
        throw new Error(`migration ${file} failed: ${(e as Error).message}`, { cause: e })
      }
    }
    if (opts.functions !== false) applied.push(...(await applyFunctions(client)))
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {})
    client.release()
  }
  return applied
}

/** Applies each functions file whose content differs from the one applied last, in one go each. */
async function applyFunctions(client: pg.PoolClient): Promise<string[]> {
  await client.query(
    'CREATE TABLE IF NOT EXISTS schema_functions (name text PRIMARY KEY, sha256 text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
  )
  const known = new Map(
    (
      await client.query<{ name: string; sha256: string }>(
        'SELECT name, sha256 FROM schema_functions',
      )
    ).rows.map((r) => [r.name, r.sha256]),
  )
  const applied: string[] = []
  for (const file of fs
    .readdirSync(FUNCTIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const sql = fs.readFileSync(path.join(FUNCTIONS_DIR, file), 'utf8')
    const sha256 = createHash('sha256').update(sql).digest('hex')
    if (known.get(file) === sha256) continue
    await client.query('BEGIN')
    try {
      await client.query(sql)
      await client.query(
        `INSERT INTO schema_functions (name, sha256) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET sha256 = EXCLUDED.sha256, applied_at = now()`,
        [file, sha256],
      )
      await client.query('COMMIT')
      applied.push(`functions/${file}`)
    } catch (e) {
      await client.query('ROLLBACK')
      throw new Error(`functions ${file} failed: ${(e as Error).message}`, { cause: e })
    }
  }
  return applied
}
