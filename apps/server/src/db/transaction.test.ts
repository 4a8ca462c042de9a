import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { openDatabase, type Database } from './pool.ts'
import { asAnotherSession, clientOr, inTransaction } from './transaction.ts'

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
