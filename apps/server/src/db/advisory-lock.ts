import type pg from 'pg'
import type { Queryable } from './transaction.ts'

/**
 * Runs `work` on one connection holding a session advisory lock on `keys`, so among several
 * processes only one runs it at a time; returns null without running it when another holds it.
 */
export async function withAdvisoryLock<T>(
  pool: pg.Pool,
  keys: [number, number],
  work: (q: pg.PoolClient) => Promise<T>,
): Promise<T | null> {
  return onLockedConnection(pool, keys, work, async (q) => {
    const locked = await q.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', keys)
    return locked.rows[0]?.ok === true
  })
}

/**
 * Takes a transaction advisory lock on `keys`, waiting for it: held until the caller's
 * transaction ends, so writers of one thing queue behind each other.
 */
export async function lockForTransaction(q: Queryable, keys: [number, number]): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock($1, $2)', keys)
}

/**
 * Runs `work` on one connection holding a session advisory lock on `keys`, waiting for the
 * lock when another holds it.
 */
export async function withAdvisoryLockWaiting<T>(
  pool: pg.Pool,
  keys: [number, number],
  work: (q: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const done = await onLockedConnection(
    pool,
    keys,
    async (q) => ({ value: await work(q) }),
    async (q) => {
      // Waiting for the holder to finish is the point here, however long its run: the
      // connection's lock and statement limits are lifted for the wait and restored after it.
      await q.query('SET lock_timeout = 0; SET statement_timeout = 0')
      try {
        await q.query('SELECT pg_advisory_lock($1, $2)', keys)
      } finally {
        await q.query('RESET lock_timeout; RESET statement_timeout')
      }
      return true
    },
  )
  return done!.value
}

/**
 * Runs `work` on one connection once `lock` has taken the session advisory lock on `keys`, and
 * unlocks after it; null without running it when `lock` did not take it.
 */
async function onLockedConnection<T>(
  pool: pg.Pool,
  keys: [number, number],
  work: (q: pg.PoolClient) => Promise<T>,
  lock: (q: pg.PoolClient) => Promise<boolean>,
): Promise<T | null> {
  const q = await pool.connect()
  try {
    if (!(await lock(q))) return null
    try {
      return await work(q)
    } finally {
      await q.query('SELECT pg_advisory_unlock($1, $2)', keys).catch(() => {})
    }
  } finally {
    q.release()
  }
}
