import type pg from 'pg'
import type { Queryable } from './transaction.ts'

/** The page a list asks for: its number from 1, and its size. */
export interface PageAsked {
  pageNum: number
  pageSize: number
}

/**
 * One page of `table`'s rows (those `where` keeps, its `$n` taken from `params`) in `order`,
 * with `columns`, and how many rows there are in all.
 */
export async function selectPage<R extends pg.QueryResultRow>(
  q: Queryable,
  sql: { columns: string; table: string; where?: string; order: string },
  params: unknown[],
  page: PageAsked,
): Promise<{ rows: R[]; total: number }> {
  const from = `FROM ${sql.table}${sql.where ? ` WHERE ${sql.where}` : ''}`
  const n = params.length
  const [rows, total] = await Promise.all([
    q.query<R>(
      `SELECT ${sql.columns} ${from} ORDER BY ${sql.order} LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, page.pageSize, (page.pageNum - 1) * page.pageSize],
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params),
  ])
  return { rows: rows.rows, total: total.rows[0]!.n }
}
