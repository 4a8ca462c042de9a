import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { openDatabase, type Database } from './pool.ts'
import { asAnotherSession, clientOr, inTransaction, TRANSACTION_ATTEMPTS } from './transaction.ts'

// A query on the pool from inside a transaction waits for a second connection while the first
// holds its locks; with every connection held that way the process stalls. It is refused.

let database: Database

beforeAll(() => {
  // Two connections: the stall this guards against needs only the pool to run dry.
  database = openDatabase(inject('embeddedDatabaseUrl'), 2)
})

afterAll(() => database.close())

test('a query or a connect on the pool inside a transaction is refused, naming the fix', async () => {
  const { pool } = database
  await expect(
    inTransaction(pool, async () => {
      await pool.query('SELECT 1')
    }),
  ).rejects.toThrow('a query on the pool inside a transaction: pass the transaction client')
  await expect(inTransaction(pool, () => inTransaction(pool, async () => 1))).rejects.toThrow(
    'inside a transaction',
  )
  // Nothing was left held: both connections serve again.
  const [a, b] = await Promise.all([pool.query('SELECT 1 AS n'), pool.query('SELECT 2 AS n')])
  expect([a.rows[0].n, b.rows[0].n]).toEqual([1, 2])
})

test('shared reads inside a transaction go to its client, outside to the pool', async () => {
  const { pool } = database
  expect(clientOr(pool)).toEqual({ q: pool, inTransaction: false })
  const pids = await inTransaction(pool, async (q) => {
    const inside = clientOr(pool)
    expect(inside.inTransaction).toBe(true)
    const viaShared = await inside.q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
    const viaClient = await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
    return [viaShared.rows[0]!.pid, viaClient.rows[0]!.pid]
  })
  expect(pids[0]).toBe(pids[1])
})

test('50 transactions that each read a shared lookup on two connections all finish', async () => {
  const { pool } = database
  const lookup = () => clientOr(pool).q.query('SELECT 1')
  const done = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      inTransaction(pool, async (q) => {
        await q.query('SELECT pg_advisory_xact_lock(42)')
        await lookup()
        return i
      }),
    ),
  )
  expect(done).toHaveLength(50)
})

test('work that outlives its transaction, and another session in a test, use the pool', async () => {
  const { pool } = database
  let later: Promise<unknown> = Promise.resolve()
  await inTransaction(pool, async () => {
    later = new Promise((r) => setTimeout(r, 20)).then(() => pool.query('SELECT 1'))
    await asAnotherSession(() => pool.query('SELECT 1'))
  })
  await expect(later).resolves.toBeDefined()
})

test('two transactions locking in opposite orders both finish: the deadlock victim runs again', async () => {
  const { pool } = database
  const table = `deadlock_${process.pid}`
  await pool.query(`CREATE TABLE ${table} (id int PRIMARY KEY, n int NOT NULL)`)
  try {
    await pool.query(`INSERT INTO ${table} VALUES (1, 0), (2, 0)`)
    let runs = 0
    let bothLocked!: () => void
    const firstLocks = new Promise<void>((r) => (bothLocked = r))
    const move = (first: number, second: number, wait: Promise<void>) =>
      inTransaction(
        pool,
        async (q) => {
          runs += 1
          await q.query(`UPDATE ${table} SET n = n + 1 WHERE id = $1`, [first])
          bothLocked()
          await wait
          await q.query(`UPDATE ${table} SET n = n + 1 WHERE id = $1`, [second])
        },
        { retryConflicts: true },
      )
    const pause = new Promise<void>((r) => setTimeout(r, 100))
    await Promise.all([
      move(
        1,
        2,
        firstLocks.then(() => pause),
      ),
      move(2, 1, pause),
    ])
    const { rows } = await pool.query(`SELECT n FROM ${table} ORDER BY id`)
    expect(rows.map((r) => r.n)).toEqual([2, 2])
    expect(runs).toBeGreaterThan(2)
    expect(runs).toBeLessThanOrEqual(2 * TRANSACTION_ATTEMPTS)
  } finally {
    await pool.query(`DROP TABLE ${table}`)
  }
})

test('any other failure is not run again', async () => {
  let runs = 0
  await expect(
    inTransaction(
      database.pool,
      async (q) => {
        runs += 1
        await q.query('SELECT 1/0')
      },
      { retryConflicts: true },
    ),
  ).rejects.toMatchObject({ code: '22012' })
  expect(runs).toBe(1)
})

test('without retryConflicts a deadlock goes to the caller after one run', async () => {
  let runs = 0
  await expect(
    inTransaction(database.pool, async () => {
      runs += 1
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' })
    }),
  ).rejects.toMatchObject({ code: '40P01' })
  expect(runs).toBe(1)
})
