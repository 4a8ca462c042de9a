import { trimDecimal, type DirectMember } from '@hope/api'
import type { Queryable } from '../../db/transaction.ts'

export type Partition = 1 | 2 | 3

/** The inviter chain, nearest first, with what the reward rules need. */
export async function uplines(
  q: Queryable,
  userId: number,
): Promise<{ id: number; level: number; isRobot: boolean }[]> {
  const res = await q.query<{ id: string; level: number; is_robot: boolean; depth: string }>(
    `SELECT u.id::text, u.level, u.is_robot, a.depth
       FROM users me
       CROSS JOIN LATERAL unnest(me.ancestor_ids) WITH ORDINALITY AS a (id, depth)
       JOIN users u ON u.id = a.id
      WHERE me.id = $1
      ORDER BY a.depth DESC`,
    [userId],
  )
  return res.rows.map((r) => ({ id: Number(r.id), level: r.level, isRobot: r.is_robot }))
}

/** Adds to the team statistics of every upline of `userId` (see team_add). */
export async function teamAdd(
  q: Queryable,
  userId: number,
  add: { people?: number; consensus?: string; community?: string },
): Promise<void> {
  await q.query('SELECT team_add($1, $2, $3, $4)', [
    userId,
    add.people ?? 0,
    add.consensus ?? '0',
    add.community ?? '0',
  ])
}

export async function teamStats(
  q: Queryable,
  userId: number,
): Promise<{ location: Partition; people: number; consensus: string; community: string }[]> {
  const res = await q.query<{
    partition: Partition
    people: number
    consensus: string
    community: string
  }>({
    // Named: the team screen reads it on every visit, planned once per connection.
    name: 'team_stats',
    text: `SELECT partition, people, consensus::text, community::text FROM team_stats WHERE user_id = $1`,
    values: [userId],
  })
  return ([1, 2, 3] as const).map((location) => {
    const r = res.rows.find((x) => x.partition === location)
    return {
      location,
      people: r?.people ?? 0,
      consensus: trimDecimal(r?.consensus ?? '0'),
      community: trimDecimal(r?.community ?? '0'),
    }
  })
}

/** How many members `userId` invited directly (kept in direct_counts by triggers on users). */
export async function directCount(q: Queryable, userId: number): Promise<number> {
  const res = await q.query<{ n: string }>({
    name: 'direct_members_total',
    text: 'SELECT coalesce((SELECT members FROM direct_counts WHERE user_id = $1), 0)::text AS n',
    values: [userId],
  })
  return Number(res.rows[0]!.n)
}

interface DirectMemberRow {
  user_name: string
  level: number
  location: Partition
  people: string
  consensus: string
  created_at: Date
}
const toDirectMember = (r: DirectMemberRow): DirectMember => ({
  userName: r.user_name,
  level: r.level,
  location: r.location,
  teamPeople: Number(r.people),
  consensus: trimDecimal(r.consensus),
  createdAt: r.created_at.toISOString(),
})

export async function directMembers(
  q: Queryable,
  userId: number,
  page: { pageNum: number; pageSize: number },
): Promise<{ total: number; list: DirectMember[] }> {
  const [rows, total] = await Promise.all([
    q.query<DirectMemberRow>({
      name: 'direct_members',
      text: `SELECT u.user_name, u.level, u.location, coalesce(t.people, 0)::text AS people,
              (coalesce(t.consensus, 0) + coalesce(own.principal, 0))::text AS consensus, u.created_at
         FROM users u
         LEFT JOIN LATERAL (SELECT sum(people) AS people, sum(consensus) AS consensus
                              FROM team_stats WHERE user_id = u.id) t ON true
         LEFT JOIN LATERAL (SELECT sum(principal) AS principal FROM stake_positions WHERE user_id = u.id) own ON true
        WHERE u.inviter_id = $1
        ORDER BY u.id DESC LIMIT $2 OFFSET $3`,
      values: [userId, page.pageSize, (page.pageNum - 1) * page.pageSize],
    }),
    directCount(q, userId),
  ])
  return { total, list: rows.rows.map(toDirectMember) }
}
