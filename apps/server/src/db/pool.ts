import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import * as schema from './schema/index.ts'

export type Db = NodePgDatabase<typeof schema>
/** A transaction handle or the pool-backed database: repositories take either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db

// NUMERIC and BIGINT stay strings: money never passes through a JS float.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v)
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v)

export interface Database {
  pool: pg.Pool
  db: Db
  close(): Promise<void>
}

export function openDatabase(url: string, max = 20): Database {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 })
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  })
  const db = drizzle(pool, { schema })
  return { pool, db, close: () => pool.end() }
}
