import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { databaseTargets } from '../testing/index.ts'
import { FUNCTIONS_DIR, migrate } from './migrate.ts'

const LEDGER_SQL = fs.readFileSync(path.join(FUNCTIONS_DIR, 'ledger.sql'), 'utf8')
/** The functions ledger.sql defines, by name. */
const defined = [...LEDGER_SQL.matchAll(/^CREATE OR REPLACE FUNCTION (\w+)\(/gm)].map((m) => m[1]!)

describe.each(databaseTargets())('the ledger’s functions in one file ($name)', (target) => {
  const name = `hope_fn_${process.pid}_${Date.now().toString(36)}`
  let pool: pg.Pool
  const definitions = async () =>
    new Map(
      (
        await pool.query<{ name: string; def: string }>(
          `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS def
             FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = current_schema() AND p.proname LIKE 'ledger\\_%'`,
        )
      ).rows.map((r) => [r.name, r.def]),
    )

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: target.url })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    const url = new URL(target.url)
    url.pathname = `/${name}`
    pool = new pg.Pool({ connectionString: url.toString(), max: 2 })
  })
  afterAll(async () => {
    await pool?.end()
    const admin = new pg.Client({ connectionString: target.url })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  })

  test('no migration defines a ledger function but the trigger 0002 needs; the file defines every one', async () => {
    const migrations = path.join(path.dirname(FUNCTIONS_DIR), 'migrations')
    for (const file of fs.readdirSync(migrations)) {
      const sql = fs.readFileSync(path.join(migrations, file), 'utf8')
      const created = [...sql.matchAll(/CREATE (?:OR REPLACE )?FUNCTION (ledger_\w+)\(/g)].map(
        (m) => m[1],
      )
      expect(
        created.filter((name) => name !== 'ledger_append_only'),
        file,
      ).toEqual([])
    }
    // The migrations alone leave the ledger without its moves; the file brings every one.
    const applied = await migrate(pool, { functions: false })
    expect(applied.every((f) => !f.startsWith('functions/'))).toBe(true)
    expect([...(await definitions()).keys()]).toEqual(['ledger_append_only'])
    expect(await migrate(pool)).toEqual(['functions/ledger.sql'])
    const all = await definitions()
    expect([...all.keys()].sort()).toEqual([...defined].sort())
    // Each as the file writes it.
    for (const [name, def] of all)
      expect(LEDGER_SQL.replace(/\s+/g, ' '), name).toContain(
        def
          .replace(/public\./, '')
          .replace(/\s+/g, ' ')
          .trim(),
      )
    // Applied once: a start with the same file applies nothing.
    expect(await migrate(pool)).toEqual([])
  })

  test('a change to the file is applied at the next start', async () => {
    await pool.query(`UPDATE schema_functions SET sha256 = 'old' WHERE name = 'ledger.sql'`)
    await pool.query(`CREATE OR REPLACE FUNCTION ledger_fail(p_code text, p_message text, p_detail text)
      RETURNS boolean LANGUAGE sql AS $$ SELECT false $$`)
    expect(await migrate(pool)).toEqual(['functions/ledger.sql'])
    expect((await definitions()).get('ledger_fail')).toMatch(/RAISE EXCEPTION|plpgsql/)
  })
})
