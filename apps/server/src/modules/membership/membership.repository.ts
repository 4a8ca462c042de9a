import type { MemberFlags } from '@hope/api'
import type { Queryable } from '../../db/transaction.ts'
import type { NodeType } from '@hope/api'

export interface NodeHolding {
  type: NodeType
  source: 'bought' | 'granted'
}

/**
 * The member's level, holding the user row until the transaction ends. NO KEY UPDATE: the
 * foreign-key checks of other money paths (a withdrawal's row names its user) take KEY SHARE on
 * this row while holding their accounts, and must not wait on it: that was a deadlock.
 */
export async function lockUserLevel(q: Queryable, userId: number): Promise<number> {
  const res = await q.query<{ level: number }>(
    'SELECT level FROM users WHERE id = $1 FOR NO KEY UPDATE',
    [userId],
  )
  return res.rows[0]!.level
}

/** The member's level; 0 for an unknown id. */
export async function levelOf(q: Queryable, userId: number): Promise<number> {
  const res = await q.query<{ level: number }>('SELECT level FROM users WHERE id = $1', [userId])
  return res.rows[0]?.level ?? 0
}

/** A member by address (user name), with the uplines it hangs under; null when unknown. */
export async function memberByAddress(
  q: Queryable,
  address: string,
): Promise<{ id: number; ancestorIds: number[] } | null> {
  const res = await q.query<{ id: string; ancestor_ids: string[] }>(
    'SELECT id::text, ancestor_ids::text[] FROM users WHERE user_name = $1',
    [address.toLowerCase()],
  )
  const r = res.rows[0]
  return r ? { id: Number(r.id), ancestorIds: r.ancestor_ids.map(Number) } : null
}

/** A member's id by user name, holding the user row; null when unknown. */
export async function lockMemberId(q: Queryable, userName: string): Promise<number | null> {
  const res = await q.query<{ id: string }>(
    'SELECT id::text FROM users WHERE user_name = $1 FOR NO KEY UPDATE',
    [userName.toLowerCase()],
  )
  return res.rows[0] ? Number(res.rows[0].id) : null
}

/** Where a member is placed, and whether anything (a team, a position) already hangs on it. */
export async function placementOf(
  q: Queryable,
  userId: number,
): Promise<{ location: number; teamPeople: number; positions: number }> {
  const res = await q.query<{ location: number; team: string; positions: string }>(
    `SELECT u.location,
            (SELECT coalesce(sum(people), 0) FROM team_stats WHERE user_id = u.id)::text AS team,
            (SELECT count(*) FROM stake_positions WHERE user_id = u.id)::text AS positions
       FROM users u WHERE u.id = $1`,
    [userId],
  )
  const r = res.rows[0]!
  return { location: r.location, teamPeople: Number(r.team), positions: Number(r.positions) }
}

/**
 * The nodes a member holds. Holdings are part of the membership a member sees (`game/vipInfo`)
 * and the console shows; buying and granting them is the nodes module's.
 */
export async function nodesOf(q: Queryable, userId: number): Promise<NodeHolding[]> {
  const res = await q.query<NodeHolding>(
    'SELECT type, source FROM node_holders WHERE user_id = $1 ORDER BY type',
    [userId],
  )
  return res.rows
}

/** What the console shows of a member's standing: robot flag and nodes. */
export async function memberFlags(q: Queryable, userId: number): Promise<MemberFlags> {
  const res = await q.query<{ user_name: string; is_robot: boolean }>(
    'SELECT user_name, is_robot FROM users WHERE id = $1',
    [userId],
  )
  return {
    userName: res.rows[0]!.user_name,
    isRobot: res.rows[0]!.is_robot,
    nodes: await nodesOf(q, userId),
  }
}
