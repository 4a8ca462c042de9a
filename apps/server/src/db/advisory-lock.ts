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
  const q = await pool.connect()
  try {
    const locked = await q.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', keys)
    if (!locked.rows[0]?.ok) return null
    try {
      return await work(q)
    } finally {
      await q.query('SELECT pg_advisory_unlock($1, $2)', keys).catch(() => {})
    }
  } finally {
    q.release()
  }
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
  const q = await pool.connect()
  try {
    await q.query('SELECT pg_advisory_lock($1, $2)', keys)
    try {
      return await work(q)
    } finally {
      await q.query('SELECT pg_advisory_unlock($1, $2)', keys).catch(() => {})
    }
  } finally {
    q.release()
  }
}
