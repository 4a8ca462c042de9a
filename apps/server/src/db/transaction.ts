import type pg from 'pg'

/** Anything that runs a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

/**
 * Runs `work` in one database transaction on a client of its own: committed when `work`
 * resolves, rolled back when it throws (the error goes on to the caller). The one way the
 * server opens a transaction; repositories take the client `work` is given.
 * @example await inTransaction(pool, async (q) => { await repo.insertRow(q, row) })
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (q: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const q = await pool.connect()
  try {
    await q.query('BEGIN')
    const result = await work(q)
    await q.query('COMMIT')
    return result
  } catch (e) {
    await q.query('ROLLBACK').catch(() => {})
    throw e
  } finally {
    q.release()
  }
}
