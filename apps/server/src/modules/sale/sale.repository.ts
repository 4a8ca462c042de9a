import { trimDecimal } from '@hope/api'
import type { Queryable } from '../../db/transaction.ts'

/** HOPE sold from the stages so far; `lock` holds the counter for a purchase. */
export async function soldHope(q: Queryable, lock = false): Promise<string> {
  const res = await q.query<{ sold: string }>(
    `SELECT sold::text AS sold FROM token_sale WHERE id = 1${lock ? ' FOR UPDATE' : ''}`,
  )
  return res.rows[0]?.sold ?? '0'
}

export async function addSold(q: Queryable, hope: string): Promise<void> {
  await q.query('UPDATE token_sale SET sold = sold + $1 WHERE id = 1', [hope])
}

/** What a user's split account was granted by purchases, and how much of it was released. */
export async function splitOf(
  q: Queryable,
  userId: number,
): Promise<{ total: string; released: string }> {
  const res = await q.query<{ total: string; released: string }>(
    'SELECT total::text, released::text FROM split_grants WHERE user_id = $1',
    [userId],
  )
  const r = res.rows[0]
  return { total: trimDecimal(r?.total ?? '0'), released: trimDecimal(r?.released ?? '0') }
}

/**
 * Adds HOPE bought now to a user's split grant, and to the day it was bought on in the
 * settlement's time zone (`utcOffsetMinutes`), so an earlier day's settlement leaves it out.
 */
export async function addSplit(
  q: Queryable,
  userId: number,
  hope: string,
  utcOffsetMinutes: number,
): Promise<void> {
  await q.query(
    `WITH grant_total AS (
       INSERT INTO split_grants (user_id, total) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET total = split_grants.total + excluded.total)
     INSERT INTO split_grant_days (user_id, day, hope)
     VALUES ($1, (now() AT TIME ZONE 'UTC' + make_interval(mins => $3))::date, $2)
     ON CONFLICT (user_id, day) DO UPDATE SET hope = split_grant_days.hope + excluded.hope`,
    [userId, hope, utcOffsetMinutes],
  )
}

export interface DueSplit {
  userId: string
  /** split HOPE bought by the end of the day */
  total: string
  released: string
  split: number
  community: number
  isRobot: boolean
}

/**
 * The next batch of split grants with HOPE left to release as of `day` (what was bought
 * later left out), after user id `after`; locked, skipping rows another run holds.
 */
export async function lockDueSplits(
  q: Queryable,
  day: string,
  limit: number,
  after: string,
): Promise<DueSplit[]> {
  const res = await q.query<{
    user_id: string
    total: string
    released: string
    split: string
    community: string
    is_robot: boolean
  }>(
    `SELECT g.user_id::text, (g.total - later.hope)::text AS total, g.released::text,
            sp.id::text AS split, cm.id::text AS community, u.is_robot
       FROM split_grants g
       CROSS JOIN LATERAL (
         SELECT coalesce(sum(d.hope), 0) AS hope FROM split_grant_days d
          WHERE d.user_id = g.user_id AND d.day > $1::date) later
       JOIN users u ON u.id = g.user_id
       JOIN ledger_accounts sp ON sp.user_id = g.user_id AND sp.kind = 'split'
       JOIN ledger_accounts cm ON cm.user_id = g.user_id AND cm.kind = 'community'
      WHERE g.released < g.total - later.hope
        AND (g.settled_through IS NULL OR g.settled_through < $1::date)
        AND g.user_id > $3
      ORDER BY g.user_id LIMIT $2 FOR UPDATE OF g SKIP LOCKED`,
    [day, limit, after],
  )
  return res.rows.map((r) => ({
    userId: r.user_id,
    total: r.total,
    released: r.released,
    split: Number(r.split),
    community: Number(r.community),
    isRobot: r.is_robot,
  }))
}

export async function markSplitsReleased(
  q: Queryable,
  day: string,
  userIds: string[],
  amounts: string[],
): Promise<void> {
  await q.query(
    `UPDATE split_grants g SET released = g.released + u.amount, settled_through = $1::date
       FROM unnest($2::bigint[], $3::numeric[]) AS u (id, amount) WHERE g.user_id = u.id`,
    [day, userIds, amounts],
  )
}
