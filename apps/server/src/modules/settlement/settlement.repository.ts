import { trimDecimal, type SettlementRun } from '@hope/api'
import type { Queryable } from '../../db/transaction.ts'

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
  consensusHope: trimDecimal(r.consensus_hope),
  pledgeHope: trimDecimal(r.pledge_hope),
  splits: r.splits,
  splitHope: trimDecimal(r.split_hope),
  nodeUsdt: trimDecimal(r.node_usdt),
  rankHope: trimDecimal(r.rank_hope),
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

/** Whether the run of `day` has finished. */
export async function isDayDone(q: Queryable, day: string): Promise<boolean> {
  const res = await q.query(`SELECT 1 FROM settlement_runs WHERE day = $1 AND status = 'done'`, [
    day,
  ])
  return Boolean(res.rowCount)
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

/** What a batch adds to its run's progress counters. */
export async function addRunProgress(
  q: Queryable,
  runId: number,
  add:
    | { kind: 'consensus'; positions: number; hope: string }
    | { kind: 'pledge'; pledges: number; hope: string }
    | { kind: 'split'; splits: number; hope: string }
    | { kind: 'rank'; hope: string },
): Promise<void> {
  if (add.kind === 'consensus')
    await q.query(
      'UPDATE settlement_runs SET positions = positions + $2, consensus_hope = consensus_hope + $3 WHERE id = $1',
      [runId, add.positions, add.hope],
    )
  else if (add.kind === 'pledge')
    await q.query(
      'UPDATE settlement_runs SET pledges = pledges + $2, pledge_hope = pledge_hope + $3 WHERE id = $1',
      [runId, add.pledges, add.hope],
    )
  else if (add.kind === 'split')
    await q.query(
      'UPDATE settlement_runs SET splits = splits + $2, split_hope = split_hope + $3 WHERE id = $1',
      [runId, add.splits, add.hope],
    )
  else
    await q.query('UPDATE settlement_runs SET rank_hope = rank_hope + $2 WHERE id = $1', [
      runId,
      add.hope,
    ])
}

export async function setRunNodeUsdt(q: Queryable, runId: number, usdt: string): Promise<void> {
  await q.query('UPDATE settlement_runs SET node_usdt = $2 WHERE id = $1', [runId, usdt])
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

/** Adds to the USDT value each user's positions released in a run (the base of rank rewards). */
export async function addUserValues(
  q: Queryable,
  runId: number,
  userIds: string[],
  values: string[],
): Promise<void> {
  await q.query(
    `INSERT INTO settlement_user_values (run_id, user_id, value)
     SELECT $1, u.id, u.value FROM unnest($2::bigint[], $3::numeric[]) AS u (id, value)
     ON CONFLICT (run_id, user_id) DO UPDATE SET value = settlement_user_values.value + excluded.value`,
    [runId, userIds, values],
  )
}

/** Whether a run's rank rewards were worked out, holding the run row. */
export async function lockRankRewardsReady(q: Queryable, runId: number): Promise<boolean> {
  const res = await q.query<{ ready: boolean }>(
    'SELECT rank_rewards_ready AS ready FROM settlement_runs WHERE id = $1 FOR UPDATE',
    [runId],
  )
  return res.rows[0]!.ready
}

/**
 * Works out a run's rank rewards (USDT value per upline) in one statement: each member's
 * released value goes up its uplines as a differential of their rank rates, ranks counted from
 * team performance without the strongest partition; robots' rate is 0. Marks them ready.
 */
export async function insertRankRewards(
  q: Queryable,
  runId: number,
  thresholdsUsdt: string[],
  rates: string[],
): Promise<void> {
  await q.query(
    `WITH team AS (
       SELECT t.user_id, sum(t.consensus) - max(t.consensus) AS counted
         FROM team_stats t GROUP BY t.user_id),
     rates AS (
       SELECT team.user_id,
              CASE WHEN u.is_robot THEN 0 ELSE coalesce(
                (SELECT r.rate FROM unnest($2::numeric[], $3::numeric[]) WITH ORDINALITY AS r (threshold, rate, k)
                  WHERE team.counted >= r.threshold ORDER BY r.k DESC LIMIT 1), 0) END AS rate
         FROM team JOIN users u ON u.id = team.user_id),
     shares AS (
       SELECT path.upline,
              trunc(v.value * greatest(coalesce(r.rate, 0) - coalesce(max(coalesce(r.rate, 0)) OVER (
                PARTITION BY v.user_id ORDER BY path.i DESC
                ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0), 0), 6) AS reward
         FROM settlement_user_values v
         JOIN users me ON me.id = v.user_id
         CROSS JOIN LATERAL unnest(me.ancestor_ids) WITH ORDINALITY AS path (upline, i)
         LEFT JOIN rates r ON r.user_id = path.upline
        WHERE v.run_id = $1)
     INSERT INTO settlement_rank_rewards (run_id, user_id, value)
     SELECT $1, upline, sum(reward) FROM shares WHERE reward > 0 GROUP BY upline`,
    [runId, thresholdsUsdt, rates],
  )
  await q.query('UPDATE settlement_runs SET rank_rewards_ready = true WHERE id = $1', [runId])
}

/** The next batch of a run's unpaid rank rewards, locked. */
export async function lockUnpaidRankRewards(
  q: Queryable,
  runId: number,
  limit: number,
): Promise<{ userId: string; value: string; community: number }[]> {
  const res = await q.query<{ user_id: string; value: string; community: string }>(
    `SELECT w.user_id::text, w.value::text, a.id::text AS community
       FROM settlement_rank_rewards w
       JOIN ledger_accounts a ON a.user_id = w.user_id AND a.kind = 'community'
      WHERE w.run_id = $1 AND NOT w.paid
      ORDER BY w.user_id LIMIT $2 FOR UPDATE OF w`,
    [runId, limit],
  )
  return res.rows.map((r) => ({
    userId: r.user_id,
    value: r.value,
    community: Number(r.community),
  }))
}

export async function markRankRewardsPaid(
  q: Queryable,
  runId: number,
  userIds: string[],
): Promise<void> {
  await q.query(
    'UPDATE settlement_rank_rewards SET paid = true WHERE run_id = $1 AND user_id = ANY ($2::bigint[])',
    [runId, userIds],
  )
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
