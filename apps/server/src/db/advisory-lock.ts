import type pg from 'pg'

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
