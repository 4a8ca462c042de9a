import type pg from 'pg'

/** Anything that runs a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

/**
 * Runs `work` in one database transaction on a client of its own: committed when `work`
 * resolves, rolled back when it throws (the error goes on to the caller). The one way the
 * server opens a transaction; repositories take the client `work` is given. Given a client
 * already held (a job's, under its session advisory lock), the transaction runs on that one
 * and the client stays with its holder.
 * @example await inTransaction(pool, async (q) => { await repo.insertRow(q, row) })
 */
export async function inTransaction<T>(
  on: pg.Pool | pg.PoolClient,
  work: (q: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const held = 'release' in on
  const q = held ? on : await on.connect()
  try {
    await q.query('BEGIN')
    const result = await work(q)
    await q.query('COMMIT')
    return result
  } catch (e) {
    await q.query('ROLLBACK').catch(() => {})
    throw e
  } finally {
    if (!held) q.release()
  }
}
