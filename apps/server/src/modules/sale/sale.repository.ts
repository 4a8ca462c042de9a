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
