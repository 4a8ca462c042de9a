import { RANKING_SIZE, type RankingKind } from '@hope/api'
import type pg from 'pg'
import type { RankedRow } from './ranking.rules.ts'

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

/**
 * The candidates of each ranking, best first: ties go to the earlier member (the lower id), so
 * the order is the same however often it is taken. Robots are left out, and so are robots
 * invited (they are not real invitations); a place needs a value above zero.
 */
const CANDIDATES: Record<RankingKind, string> = {
  inviters: `SELECT u.id, count(*)::numeric AS value
               FROM users u JOIN users c ON c.inviter_id = u.id AND NOT c.is_robot
              WHERE NOT u.is_robot
              GROUP BY u.id
              ORDER BY value DESC, u.id
              LIMIT $3`,
  performance: `SELECT t.user_id AS id, sum(t.consensus) AS value
                  FROM team_stats t JOIN users u ON u.id = t.user_id AND NOT u.is_robot
                 GROUP BY t.user_id
                HAVING sum(t.consensus) > 0
                 ORDER BY value DESC, t.user_id
                 LIMIT $3`,
}

/** The kinds already taken for `day`, and when. */
export async function snapshotsOf(
  q: Queryable,
  day: string,
): Promise<{ kind: RankingKind; takenAtMs: number }[]> {
  const res = await q.query<{ kind: RankingKind; taken_at: Date }>(
    'SELECT kind, taken_at FROM ranking_snapshots WHERE day = $1',
    [day],
  )
  return res.rows.map((r) => ({ kind: r.kind, takenAtMs: r.taken_at.getTime() }))
}

/**
 * Takes the snapshot of one kind for `day`: the snapshot row and its top places, in place of
 * the ones taken before that day (readers see the old places or the new, never a mix).
 */
export async function takeSnapshot(
  q: Queryable,
  day: string,
  kind: RankingKind,
  takenAt: Date,
): Promise<number> {
  await q.query('DELETE FROM ranking_entries WHERE day = $1 AND kind = $2', [day, kind])
  await q.query(
    `INSERT INTO ranking_snapshots (day, kind, taken_at) VALUES ($1, $2, $3)
     ON CONFLICT (day, kind) DO UPDATE SET taken_at = EXCLUDED.taken_at`,
    [day, kind, takenAt],
  )
  const res = await q.query(
    `INSERT INTO ranking_entries (day, kind, rank, user_id, value)
     SELECT $1::date, $2, row_number() OVER (ORDER BY top.value DESC, top.id), top.id, top.value
       FROM (${CANDIDATES[kind]}) top`,
    [day, kind, RANKING_SIZE],
  )
  return res.rowCount ?? 0
}

export async function snapshotTakenAt(
  q: Queryable,
  day: string,
  kind: RankingKind,
): Promise<Date | null> {
  const res = await q.query<{ taken_at: Date }>(
    'SELECT taken_at FROM ranking_snapshots WHERE day = $1 AND kind = $2',
    [day, kind],
  )
  return res.rows[0]?.taken_at ?? null
}

/** The first `limit` places of a snapshot, in rank order. */
export async function topPlaces(
  q: Queryable,
  day: string,
  kind: RankingKind,
  limit: number,
): Promise<RankedRow[]> {
  const res = await q.query<{ rank: number; user_id: string; user_name: string; value: string }>(
    `SELECT e.rank, e.user_id::text, u.user_name, e.value::text
       FROM ranking_entries e JOIN users u ON u.id = e.user_id
      WHERE e.day = $1 AND e.kind = $2
      ORDER BY e.rank LIMIT $3`,
    [day, kind, limit],
  )
  return res.rows.map((r) => ({
    rank: r.rank,
    userId: Number(r.user_id),
    userName: r.user_name,
    value: r.value,
  }))
}

export async function placeOf(
  q: Queryable,
  day: string,
  kind: RankingKind,
  userId: number,
): Promise<number | null> {
  const res = await q.query<{ rank: number }>(
    'SELECT rank FROM ranking_entries WHERE day = $1 AND kind = $2 AND user_id = $3',
    [day, kind, userId],
  )
  return res.rows[0]?.rank ?? null
}
