import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadConfig } from '../config.ts'
import { prepareRoleUrls, type RoleUrls } from '../db/app-database.ts'
import { fundAccount, insertTestUser, databaseTargets, useTestDatabase } from '../testing/index.ts'

// The roles the running app connects as (migration 0050): the web workers and jobs (hope_app)
// change the app's rows but not its schema, its roles or the signer's logs; the signer
// (hope_signer) reads what it checks and appends to its logs, nothing else.

/** The SQLSTATE of what `sql` fails with, or 'ok'. */
async function outcome(pool: pg.Pool, sql: string, params: unknown[] = []): Promise<string> {
  try {
    await pool.query(sql, params)
    return 'ok'
  } catch (e) {
    return (e as { code?: string }).code ?? String(e)
  }
}

const DENIED = '42501'

/** Each statement refused to the role `pool` signs in as: permission denied, whatever it is. */
async function expectDenied(pool: pg.Pool, statements: string[]) {
  for (const sql of statements) expect(await outcome(pool, sql), sql).toBe(DENIED)
}

describe.each(databaseTargets())('database roles on $name', (target) => {
  const t = useTestDatabase(target)
  let roles: RoleUrls
  let app: pg.Pool
  let signer: pg.Pool
  let withdrawalId: number

  beforeAll(async () => {
    // As the app prepares them: on the embedded server the roles get the owner's password, on
    // an external one (trusted locally here) the owner's URL with the role's user.
    const config = loadConfig(
      target.name === 'embedded PostgreSQL' ? {} : { DATABASE_URL: t.db.url },
    )
    roles = await prepareRoleUrls(t.db.pool, config, t.db.url)
    app = new pg.Pool({ connectionString: roles.app, max: 2 })
    signer = new pg.Pool({ connectionString: roles.signer, max: 2 })
    const user = await insertTestUser(t.db.pool)
    withdrawalId = Number(
      (
        await t.db.pool.query<{ id: string }>(
          `INSERT INTO withdrawals (user_id, to_address, amount, fee, idempotency_key, status, chain_id, amount_transfer_id)
           VALUES ($1, '0x' || repeat('ab', 20), 10, 1, 'least-privilege', 1, 31337, 0) RETURNING id`,
          [user.id],
        )
      ).rows[0]!.id,
    )
  })

  afterAll(async () => {
    await app?.end()
    await signer?.end()
  })

  test('each role logs in as itself, neither superuser nor able to make roles or databases', async () => {
    const who = async (pool: pg.Pool) =>
      (
        await pool.query<{ user: string; su: boolean; createrole: boolean; createdb: boolean }>(
          `SELECT current_user AS user, rolsuper AS su, rolcreaterole AS createrole, rolcreatedb AS createdb
           FROM pg_roles WHERE rolname = current_user`,
        )
      ).rows[0]
    expect(await who(app)).toEqual({
      user: 'hope_app',
      su: false,
      createrole: false,
      createdb: false,
    })
    expect(await who(signer)).toEqual({
      user: 'hope_signer',
      su: false,
      createrole: false,
      createdb: false,
    })
    const owned = await t.db.pool.query(
      `SELECT tablename FROM pg_tables WHERE tableowner IN ('hope_app', 'hope_signer')`,
    )
    expect(owned.rows).toEqual([])
  })

  test('the app role changes the app’s rows and runs its functions', async () => {
    const user = await insertTestUser(app)
    expect(
      await outcome(app, `UPDATE users SET nick_name = 'renamed' WHERE id = $1`, [user.id]),
    ).toBe('ok')
    // The ledger's function, its transfers and their sequences.
    await fundAccount(app, user.id, '25')
    expect(
      await outcome(app, 'SELECT id, status FROM withdrawals WHERE id = $1', [withdrawalId]),
    ).toBe('ok')
    expect(
      await outcome(app, `UPDATE withdrawals SET updated_at = now() WHERE id = $1`, [withdrawalId]),
    ).toBe('ok')
    expect(await outcome(app, 'SELECT count(*) FROM signer_log')).toBe('ok')
    expect(await outcome(app, `DELETE FROM login_nonces WHERE false`)).toBe('ok')
  })

  test('the app role cannot touch the signer’s logs', async () => {
    expect(await outcome(app, 'DELETE FROM signer_log')).toBe(DENIED)
    expect(
      await outcome(
        app,
        `INSERT INTO signer_log (withdrawal_id, amount, tx_hash) VALUES ($1, 1, '0x00')`,
        [withdrawalId],
      ),
    ).toBe(DENIED)
    await expectDenied(app, [
      'UPDATE signer_log SET amount = 0',
      'TRUNCATE signer_log',
      'DELETE FROM signer_por_log',
      `INSERT INTO signer_por_log (snapshot_id, block_number, tx_hash, raw_tx) VALUES (1, 1, '0x00', '0x00')`,
      'UPDATE signer_por_log SET block_number = 0',
      `SELECT nextval(pg_get_serial_sequence('signer_log', 'id'))`,
    ])
  })

  test('the app role cannot change the schema, the roles or the migrations’ record', async () => {
    await expectDenied(app, [
      'CREATE ROLE lp_intruder',
      'ALTER ROLE hope_app SUPERUSER',
      'DROP TABLE withdrawals',
      'ALTER TABLE withdrawals ADD COLUMN lp_x int',
      'ALTER TABLE withdrawals DISABLE TRIGGER ALL',
      'CREATE TABLE lp_t ()',
      'CREATE TABLE public.lp_t ()',
      'CREATE FUNCTION lp_f() RETURNS int LANGUAGE sql AS $$SELECT 1$$',
      `DELETE FROM schema_migrations WHERE name = '0050_roles.sql'`,
      `SELECT signer_appends_to('users')`,
      `SELECT pg_read_file('PG_VERSION')`,
    ])
  })

  test('the signer role reads what it checks and appends to its logs, nothing else', async () => {
    expect(
      await outcome(signer, 'SELECT status FROM withdrawals WHERE id = $1', [withdrawalId]),
    ).toBe('ok')
    expect(await outcome(signer, 'SELECT key, value FROM settings')).toBe('ok')
    const logged = await signer.query<{ id: string }>(
      `INSERT INTO signer_log (withdrawal_id, amount, tx_hash, nonce) VALUES ($1, 10, '0x01', 0) RETURNING id`,
      [withdrawalId],
    )
    expect(logged.rows).toHaveLength(1)
    expect(
      await outcome(
        signer,
        `INSERT INTO signer_por_log (snapshot_id, block_number, tx_hash, raw_tx) VALUES (1, 1, '0x02', '0x02')`,
      ),
    ).toBe('ok')
    expect(await outcome(signer, 'SELECT count(*) FROM signer_log')).toBe('ok')
    await expectDenied(signer, [
      'UPDATE signer_log SET amount = 0',
      'DELETE FROM signer_log',
      'DELETE FROM signer_por_log',
      'UPDATE withdrawals SET status = 3',
      'SELECT count(*) FROM users',
      'SELECT count(*) FROM ledger_transfers',
      `UPDATE settings SET value = value`,
      'CREATE TABLE lp_s ()',
    ])
  })

  test('a table a later migration makes is the app’s, unless it is declared the signer’s', async () => {
    // As a later migration would, on the owner's connection.
    await t.db.pool.query(
      'CREATE TABLE lp_later (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v int)',
    )
    await t.db.pool.query(
      'CREATE TABLE lp_signer_later (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v int)',
    )
    await t.db.pool.query(`SELECT signer_appends_to('lp_signer_later')`)
    expect(await outcome(app, 'INSERT INTO lp_later (v) VALUES (1)')).toBe('ok')
    expect(await outcome(app, 'DELETE FROM lp_later')).toBe('ok')
    expect(await outcome(signer, 'SELECT * FROM lp_later')).toBe(DENIED)
    expect(await outcome(app, 'INSERT INTO lp_signer_later (v) VALUES (1)')).toBe(DENIED)
    expect(await outcome(signer, 'INSERT INTO lp_signer_later (v) VALUES (1)')).toBe('ok')
    expect(await outcome(app, 'SELECT count(*) FROM lp_signer_later')).toBe('ok')
    expect(await outcome(signer, 'DELETE FROM lp_signer_later')).toBe(DENIED)
  })
})
