// The money paths take their locks in one order: docs/lock-order.md.
import { AsyncLocalStorage } from 'node:async_hooks'
import type pg from 'pg'

/** Anything that runs a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

/** The transaction the current code runs in, while it is open. */
const openTransaction = new AsyncLocalStorage<{ open: boolean; client: pg.PoolClient }>()

/**
 * Where a read that may run inside a transaction goes: the open transaction's client when the
 * calling code runs in one, else `pool`. For shared lookups (cached ids, settings) that callers
 * reach from both sides.
 */
export function clientOr(pool: pg.Pool): { q: Queryable; inTransaction: boolean } {
  const open = openTransaction.getStore()
  return open?.open ? { q: open.client, inTransaction: true } : { q: pool, inTransaction: false }
}

/**
 * Refuses a query on the pool from code running inside a transaction. Such a query waits for a
 * second connection while the transaction holds its locks: under load every connection ends up
 * held by a transaction waiting for one, and the process stalls until the connection timeout.
 * The pool of `openDatabase` calls this before each query and connect.
 */
export function assertOutsideTransaction(): void {
  if (openTransaction.getStore()?.open)
    throw new Error(
      'a query on the pool inside a transaction: pass the transaction client (q) instead',
    )
}

/**
 * Runs `work` as if no transaction were open: for a test that plays another session writing
 * while a transaction is open. Server code never needs it.
 */
export function asAnotherSession<T>(work: () => Promise<T>): Promise<T> {
  return openTransaction.exit(work)
}

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction may simply run again. */
const RETRYABLE = new Set(['40P01', '40001'])
/** Runs of one transaction at most when PostgreSQL aborts it for a deadlock or a conflict. */
export const TRANSACTION_ATTEMPTS = 4

/**
 * Runs `work` in one database transaction on a client of its own: committed when `work`
 * resolves, rolled back when it throws (the error goes on to the caller). The one way the
 * server opens a transaction; repositories take the client `work` is given. Given a client
 * already held (a job's, under its session advisory lock), the transaction runs on that one
 * and the client stays with its holder.
 *
 * With `retryConflicts`, a transaction PostgreSQL aborts for a deadlock or a serialization
 * failure is rolled back and run again, up to TRANSACTION_ATTEMPTS runs with a short random
 * pause between them, so contention is answered with a wait, never a 500. Only for `work` that
 * touches nothing but the database and keeps no state of its own across runs (a keyset cursor
 * advanced inside would skip rows on the second run).
 * @example await inTransaction(pool, async (q) => { await repo.insertRow(q, row) })
 */
export async function inTransaction<T>(
  on: pg.Pool | pg.PoolClient,
  work: (q: pg.PoolClient) => Promise<T>,
  opts: { retryConflicts?: boolean } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(on, work)
    } catch (e) {
      const code = (e as { code?: unknown }).code
      const retry = opts.retryConflicts && attempt < TRANSACTION_ATTEMPTS
      if (!retry || typeof code !== 'string' || !RETRYABLE.has(code)) throw e
      await new Promise((r) => setTimeout(r, Math.random() * 20 * attempt))
    }
  }
}

async function runOnce<T>(
  on: pg.Pool | pg.PoolClient,
  work: (q: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const held = 'release' in on
  const q = held ? on : await on.connect()
  try {
    await q.query('BEGIN')
    const context = { open: true, client: q }
    try {
      const result = await openTransaction.run(context, () => work(q))
      await q.query('COMMIT')
      return result
    } finally {
      // Work started inside and still running after the end may use the pool again.
      context.open = false
    }
  } catch (e) {
    await q.query('ROLLBACK').catch(() => {})
    throw e
  } finally {
    if (!held) q.release()
  }
}
