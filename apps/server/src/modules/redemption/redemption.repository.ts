import { formatAmount, trimDecimal, type PledgeItem } from '@hope/api'
import { selectPage, type PageAsked } from '../../db/page.ts'
import type { Queryable } from '../../db/transaction.ts'
import { hopeUnits } from '../../lib/units.ts'

export interface PledgeRow {
  id: string
  amount: string
  released: string
  redeemed: boolean
  created_at: Date
}
const PLEDGE_COLUMNS = 'id::text, amount::text, released::text, redeemed, created_at'
export const toPledge = (r: PledgeRow, releaseRate: string): PledgeItem => ({
  id: Number(r.id),
  amount: trimDecimal(r.amount),
  released: trimDecimal(r.released),
  convertible: formatAmount(hopeUnits(r.amount) - hopeUnits(r.released), 18),
  releaseRate,
  redeemed: r.redeemed,
  createdAt: r.created_at.toISOString(),
})

export async function pledgeByKey(q: Queryable, key: string): Promise<PledgeRow | null> {
  const res = await q.query<PledgeRow>(
    `SELECT ${PLEDGE_COLUMNS} FROM pledge_items WHERE request_key = $1`,
    [key],
  )
  return res.rows[0] ?? null
}

export async function insertPledge(
  q: Queryable,
  p: { userId: number; amount: string; key: string },
): Promise<PledgeRow> {
  const res = await q.query<PledgeRow>(
    `INSERT INTO pledge_items (user_id, amount, request_key) VALUES ($1, $2, $3) RETURNING ${PLEDGE_COLUMNS}`,
    [p.userId, p.amount, p.key],
  )
  return res.rows[0]!
}

export async function pledgesOf(
  q: Queryable,
  userId: number,
  page: PageAsked,
): Promise<{ list: PledgeRow[]; total: number }> {
  const { rows, total } = await selectPage<PledgeRow>(
    q,
    { columns: PLEDGE_COLUMNS, table: 'pledge_items', where: 'user_id = $1', order: 'id DESC' },
    [userId],
    page,
  )
  return { list: rows, total }
}

/** The next batch of unreleased pledge items due on `day`, like `lockDuePositions`. */
export async function lockDuePledges(
  q: Queryable,
  day: string,
  limit: number,
  after: string,
  utcOffsetMinutes: number,
): Promise<{ id: string; amount: string; released: string; community: number }[]> {
  const res = await q.query<{ id: string; amount: string; released: string; community: string }>(
    `SELECT i.id::text, i.amount::text, i.released::text, a.id::text AS community
       FROM pledge_items i
       JOIN ledger_accounts a ON a.user_id = i.user_id AND a.kind = 'community'
      WHERE NOT i.redeemed AND (i.settled_through IS NULL OR i.settled_through < $1::date)
        AND i.created_at < (($1::date + 1)::timestamp - make_interval(mins => $4)) AT TIME ZONE 'UTC'
        AND i.id > $3
      ORDER BY i.id LIMIT $2 FOR UPDATE OF i SKIP LOCKED`,
    [day, limit, after, utcOffsetMinutes],
  )
  return res.rows.map((r) => ({
    id: r.id,
    amount: r.amount,
    released: r.released,
    community: Number(r.community),
  }))
}

export async function markPledgesReleased(
  q: Queryable,
  day: string,
  ids: string[],
  amounts: string[],
  done: boolean[],
): Promise<void> {
  await q.query(
    `UPDATE pledge_items i SET released = i.released + u.amount, redeemed = u.done, settled_through = $1::date
       FROM unnest($2::bigint[], $3::numeric[], $4::boolean[]) AS u (id, amount, done)
      WHERE i.id = u.id`,
    [day, ids, amounts, done],
  )
}
