import {
  formatAmount,
  parseAmount,
  type PledgeItem,
  type SettlementRun,
  type StakePosition,
} from '@hope/api'
import type pg from 'pg'

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>
const trim = (v: string) => (v.includes('.') ? v.replace(/\.?0+$/, '') : v)

export async function soldHope(q: Queryable, lock = false): Promise<string> {
  const res = await q.query<{ sold: string }>(
    `SELECT sold::text AS sold FROM token_sale WHERE id = 1${lock ? ' FOR UPDATE' : ''}`,
  )
  return res.rows[0]?.sold ?? '0'
}

export async function addSold(q: Queryable, hope: string): Promise<void> {
  await q.query('UPDATE token_sale SET sold = sold + $1 WHERE id = 1', [hope])
}

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
  principal: trim(r.principal),
  hope: trim(r.hope),
  price: trim(r.price),
  released: trim(r.released),
  cap: trim(r.cap),
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
    principal: trim(r.principal),
    released: trim(r.released),
    active: Number(r.active),
    out: Number(r.out),
  }
}

interface PledgeRow {
  id: string
  amount: string
  released: string
  redeemed: boolean
  created_at: Date
}
const PLEDGE_COLUMNS = 'id::text, amount::text, released::text, redeemed, created_at'
export const toPledge = (r: PledgeRow, releaseRate: string): PledgeItem => ({
  id: Number(r.id),
  amount: trim(r.amount),
  released: trim(r.released),
  convertible: formatAmount(units18(r.amount) - units18(r.released), 18),
  releaseRate,
  redeemed: r.redeemed,
  createdAt: r.created_at.toISOString(),
})
const units18 = (v: string): bigint => parseAmount(trim(v), 18)!

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
  page: { pageNum: number; pageSize: number },
): Promise<{ list: PledgeRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    q.query<PledgeRow>(
      `SELECT ${PLEDGE_COLUMNS} FROM pledge_items WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
      [userId, page.pageSize, (page.pageNum - 1) * page.pageSize],
    ),
    q.query<{ n: string }>('SELECT count(*)::text AS n FROM pledge_items WHERE user_id = $1', [
      userId,
    ]),
  ])
  return { list: rows.rows, total: Number(total.rows[0]!.n) }
}

interface RunRow {
  id: string
  day: string
  status: 'running' | 'done'
  positions: number
  pledges: number
  consensus_hope: string
  pledge_hope: string
  splits: number
  split_hope: string
  node_usdt: string
  rank_hope: string
  started_at: Date
  finished_at: Date | null
}
const RUN_COLUMNS = `id::text, day::text, status, positions, pledges, consensus_hope::text, pledge_hope::text,
  splits, split_hope::text, node_usdt::text, rank_hope::text, started_at, finished_at`
const toRun = (r: RunRow): SettlementRun => ({
  id: Number(r.id),
  day: r.day,
  status: r.status,
  positions: r.positions,
  pledges: r.pledges,
  consensusHope: trim(r.consensus_hope),
  pledgeHope: trim(r.pledge_hope),
  splits: r.splits,
  splitHope: trim(r.split_hope),
  nodeUsdt: trim(r.node_usdt),
  rankHope: trim(r.rank_hope),
  startedAt: r.started_at.toISOString(),
  finishedAt: r.finished_at?.toISOString() ?? null,
})

export async function openRun(q: Queryable, day: string): Promise<SettlementRun> {
  await q.query('INSERT INTO settlement_runs (day) VALUES ($1) ON CONFLICT (day) DO NOTHING', [day])
  const res = await q.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM settlement_runs WHERE day = $1`, [
    day,
  ])
  return toRun(res.rows[0]!)
}

export async function runById(q: Queryable, id: number): Promise<SettlementRun | null> {
  const res = await q.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM settlement_runs WHERE id = $1`, [
    id,
  ])
  return res.rows[0] ? toRun(res.rows[0]) : null
}

/** Runs newest day first, and how many there are. */
export async function listRuns(
  q: Queryable,
  page: { pageNum: number; pageSize: number },
): Promise<{ list: SettlementRun[]; total: number }> {
  const [rows, total] = await Promise.all([
    q.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM settlement_runs ORDER BY day DESC LIMIT $1 OFFSET $2`,
      [page.pageSize, (page.pageNum - 1) * page.pageSize],
    ),
    q.query<{ n: number }>('SELECT count(*)::int AS n FROM settlement_runs'),
  ])
  return { list: rows.rows.map(toRun), total: total.rows[0]!.n }
}

export async function finishRun(q: Queryable, id: number): Promise<SettlementRun> {
  const res = await q.query<RunRow>(
    `UPDATE settlement_runs SET status = 'done', finished_at = now() WHERE id = $1 RETURNING ${RUN_COLUMNS}`,
    [id],
  )
  return toRun(res.rows[0]!)
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
): Promise<{ location: 1 | 2 | 3; people: number; consensus: string; community: string }[]> {
  const res = await q.query<{
    partition: 1 | 2 | 3
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
      consensus: trim(r?.consensus ?? '0'),
      community: trim(r?.community ?? '0'),
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

export async function directMembers(
  q: Queryable,
  userId: number,
  page: { pageNum: number; pageSize: number },
): Promise<{
  total: number
  list: {
    userName: string
    level: number
    location: 1 | 2 | 3
    teamPeople: number
    consensus: string
    createdAt: string
  }[]
}> {
  const [rows, total] = await Promise.all([
    q.query<{
      user_name: string
      level: number
      location: 1 | 2 | 3
      people: string
      consensus: string
      created_at: Date
    }>({
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
  return {
    total,
    list: rows.rows.map((r) => ({
      userName: r.user_name,
      level: r.level,
      location: r.location,
      teamPeople: Number(r.people),
      consensus: trim(r.consensus),
      createdAt: r.created_at.toISOString(),
    })),
  }
}

/** The amounts a request key moved, leg by leg; empty when the key is new. */
export async function movedUnder(q: Queryable, key: string): Promise<string[]> {
  const res = await q.query<{ amount: string }>(
    `SELECT amount::text FROM ledger_transfers WHERE request_key = $1 ORDER BY leg`,
    [key],
  )
  return res.rows.map((r) => trim(r.amount))
}

export async function lockUserLevel(q: Queryable, userId: number): Promise<number> {
  const res = await q.query<{ level: number }>('SELECT level FROM users WHERE id = $1 FOR UPDATE', [
    userId,
  ])
  return res.rows[0]!.level
}

export async function nodesOf(
  q: Queryable,
  userId: number,
): Promise<{ type: 1 | 2 | 3; source: 'bought' | 'granted' }[]> {
  const res = await q.query<{ type: 1 | 2 | 3; source: 'bought' | 'granted' }>(
    'SELECT type, source FROM node_holders WHERE user_id = $1 ORDER BY type',
    [userId],
  )
  return res.rows
}

export async function splitOf(
  q: Queryable,
  userId: number,
): Promise<{ total: string; released: string }> {
  const res = await q.query<{ total: string; released: string }>(
    'SELECT total::text, released::text FROM split_grants WHERE user_id = $1',
    [userId],
  )
  const r = res.rows[0]
  return { total: trim(r?.total ?? '0'), released: trim(r?.released ?? '0') }
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

/** Log types whose credits are rewards a user has received. */
export const EARNING_LOG_TYPES = [7, 8, 11, 4, 3, 10] as const

/**
 * What each reward log type has credited a user, in all and since `since`: one range of the
 * entries index per account of the user, summing credits only (the 20% part leaving for a pledge is a debit).
 */
export async function earningsOf(
  q: Queryable,
  userId: number,
  since: Date,
): Promise<{ logType: number; currency: 'USDT' | 'HOPE'; total: string; today: string }[]> {
  const res = await q.query<{
    logType: number
    currency: 'USDT' | 'HOPE'
    total: string
    today: string
  }>(
    `SELECT t.log_type AS "logType", a.currency, sum(e.amount)::text AS total,
            coalesce(sum(e.amount) FILTER (WHERE t.created_at >= $2), 0)::text AS today
       FROM ledger_entries e
       JOIN ledger_transfers t ON t.id = e.transfer_id
       JOIN ledger_accounts a ON a.id = e.account_id
      WHERE a.user_id = $1 AND e.user_id IS NOT NULL AND e.amount > 0
        AND t.log_type = ANY($3::smallint[])
      GROUP BY t.log_type, a.currency`,
    [userId, since, EARNING_LOG_TYPES],
  )
  return res.rows
}
