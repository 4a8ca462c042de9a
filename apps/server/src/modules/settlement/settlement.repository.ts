import { trimDecimal, type SettlementRun } from '@hope/api'
import { selectPage, type PageAsked } from '../../db/page.ts'
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
  page: PageAsked,
): Promise<{ list: SettlementRun[]; total: number }> {
  const { rows, total } = await selectPage<RunRow>(
    q,
    { columns: RUN_COLUMNS, table: 'settlement_runs', order: 'day DESC' },
    [],
    page,
  )
  return { list: rows.map(toRun), total }
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
