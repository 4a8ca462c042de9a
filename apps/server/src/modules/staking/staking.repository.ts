import { trimDecimal, type StakePosition } from '@hope/api'
import type { Queryable } from '../../db/transaction.ts'

interface PositionRow {
  id: string
  principal: string
  hope: string
  price: string
  released: string
  cap: string
  status: 'active' | 'out'
  created_at: Date
}
const POSITION_COLUMNS = `id::text, principal::text, hope::text, price::text, released::text, cap::text, status, created_at`
const toPosition = (r: PositionRow): StakePosition => ({
  id: Number(r.id),
  principal: trimDecimal(r.principal),
  hope: trimDecimal(r.hope),
  price: trimDecimal(r.price),
  released: trimDecimal(r.released),
  cap: trimDecimal(r.cap),
  status: r.status,
  createdAt: r.created_at.toISOString(),
})

export async function positionByKey(q: Queryable, key: string): Promise<StakePosition | null> {
  const res = await q.query<PositionRow>(
    `SELECT ${POSITION_COLUMNS} FROM stake_positions WHERE request_key = $1`,
    [key],
  )
  return res.rows[0] ? toPosition(res.rows[0]) : null
}

export async function insertPosition(
  q: Queryable,
  p: { userId: number; principal: string; hope: string; price: string; cap: string; key: string },
): Promise<StakePosition> {
  const res = await q.query<PositionRow>(
    `INSERT INTO stake_positions (user_id, principal, hope, price, cap, request_key)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${POSITION_COLUMNS}`,
    [p.userId, p.principal, p.hope, p.price, p.cap, p.key],
  )
  return toPosition(res.rows[0]!)
}

export async function positionsOf(
  q: Queryable,
  userId: number,
  page: { pageNum: number; pageSize: number },
): Promise<{ list: StakePosition[]; total: number }> {
  const [rows, total] = await Promise.all([
    q.query<PositionRow>(
      `SELECT ${POSITION_COLUMNS} FROM stake_positions WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
      [userId, page.pageSize, (page.pageNum - 1) * page.pageSize],
    ),
    q.query<{ n: string }>('SELECT count(*)::text AS n FROM stake_positions WHERE user_id = $1', [
      userId,
    ]),
  ])
  return { list: rows.rows.map(toPosition), total: Number(total.rows[0]!.n) }
}

export async function positionSummary(
  q: Queryable,
  userId: number,
): Promise<{ principal: string; released: string; active: number; out: number }> {
  const res = await q.query<{ principal: string; released: string; active: string; out: string }>(
    `SELECT coalesce(sum(principal), 0)::text AS principal, coalesce(sum(released), 0)::text AS released,
            count(*) FILTER (WHERE status = 'active')::text AS active,
            count(*) FILTER (WHERE status = 'out')::text AS out
       FROM stake_positions WHERE user_id = $1`,
    [userId],
  )
  const r = res.rows[0]!
  return {
    principal: trimDecimal(r.principal),
    released: trimDecimal(r.released),
    active: Number(r.active),
    out: Number(r.out),
  }
}
