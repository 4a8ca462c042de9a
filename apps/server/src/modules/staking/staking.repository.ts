import { trimDecimal, type StakePosition } from '@hope/api'
import { selectPage, type PageAsked } from '../../db/page.ts'
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
  page: PageAsked,
): Promise<{ list: StakePosition[]; total: number }> {
  const { rows, total } = await selectPage<PositionRow>(
    q,
    {
      columns: POSITION_COLUMNS,
      table: 'stake_positions',
      where: 'user_id = $1',
      order: 'id DESC',
    },
    [userId],
    page,
  )
  return { list: rows.map(toPosition), total }
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

export interface DuePosition {
  id: string
  userId: string
  principal: string
  released: string
  /** the owner's community account */
  community: number
  isRobot: boolean
}

/**
 * The next batch of active positions not yet settled through `day` and opened before it ended
 * (local time, `utcOffsetMinutes`), after id `after`; locked, skipping rows another run holds.
 */
export async function lockDuePositions(
  q: Queryable,
  day: string,
  limit: number,
  after: string,
  utcOffsetMinutes: number,
): Promise<DuePosition[]> {
  const res = await q.query<{
    id: string
    user_id: string
    principal: string
    released: string
    community: string
    is_robot: boolean
  }>(
    `SELECT p.id::text, p.user_id::text, p.principal::text, p.released::text, a.id::text AS community, u.is_robot
       FROM stake_positions p
       JOIN users u ON u.id = p.user_id
       JOIN ledger_accounts a ON a.user_id = p.user_id AND a.kind = 'community'
      WHERE p.status = 'active' AND (p.settled_through IS NULL OR p.settled_through < $1::date)
        AND p.created_at < (($1::date + 1)::timestamp - make_interval(mins => $4)) AT TIME ZONE 'UTC'
        AND p.id > $3
      ORDER BY p.id LIMIT $2 FOR UPDATE OF p SKIP LOCKED`,
    [day, limit, after, utcOffsetMinutes],
  )
  return res.rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    principal: r.principal,
    released: r.released,
    community: Number(r.community),
    isRobot: r.is_robot,
  }))
}

/** Adds each position's release and marks it settled through `day` (out when `outs`). */
export async function markPositionsReleased(
  q: Queryable,
  day: string,
  ids: string[],
  values: string[],
  outs: boolean[],
): Promise<void> {
  await q.query(
    `UPDATE stake_positions p SET released = p.released + u.value,
            status = CASE WHEN u.out THEN 'out' ELSE p.status END, settled_through = $1::date
       FROM unnest($2::bigint[], $3::numeric[], $4::boolean[]) AS u (id, value, out)
      WHERE p.id = u.id`,
    [day, ids, values, outs],
  )
}
