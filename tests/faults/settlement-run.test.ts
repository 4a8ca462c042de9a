import { parseAmount, trimDecimal, type SettlementRun } from '@hope/api'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { generateEconomy } from '../../apps/server/test-support/settlement.generate.ts'
import { settlementDayDue } from '../../apps/server/src/modules/settlement/settlement.rules.ts'
import { call, succeeded, type Operators } from './support/api.ts'
import { ledgerVerify, settledPositions } from './support/checks.ts'
import { disposeWithSummary, startWithOperators } from './support/suite.ts'
import { HopeServer, waitFor } from './support/server.ts'

const MEMBERS = 3_000
const POSITIONS = 24_000

let server: HopeServer
let ops: Operators

const hopeUnits = (v: string) => parseAmount(trimDecimal(v), 18)

beforeAll(async () => {
  server = await HopeServer.create()
  ops = await startWithOperators(server)
  const pool = server.openPool()
  try {
    await generateEconomy(pool, { users: MEMBERS, positions: POSITIONS, prefix: 'faults' })
    // Well before the settled day, whatever the hour.
    await pool.query(`UPDATE stake_positions SET created_at = now() - interval '5 days'`)
  } finally {
    await pool.end()
  }
})

afterAll(async () => {
  await disposeWithSummary(server, 'settlement run')
})

/** Settles `day`, waiting while a run of the scheduled job holds the settlement lock. */
async function settle(day: string): Promise<SettlementRun> {
  return waitFor(
    `the settlement of ${day}`,
    async () => {
      const a = await call<SettlementRun>(
        server.baseUrl,
        'admin/settle',
        { day },
        {
          token: ops.finance,
          timeoutMs: 120_000,
        },
      )
      if (succeeded(a)) return a.body!.data
      if (a.body?.reason !== 'already_resolved') throw new Error(JSON.stringify(a.body))
      return null
    },
    120_000,
    1_000,
  )
}

test('killed in a settlement run, a re-run completes and pays each release once', async () => {
  // The day the scheduled job would settle; a job run meeting ours waits on the same lock.
  const day = settlementDayDue(Date.now(), 480, '00:05')
  const pool = server.openPool()
  const running = call<SettlementRun>(
    server.baseUrl,
    'admin/settle',
    { day },
    {
      token: ops.finance,
      timeoutMs: 120_000,
    },
  )
  const atKill = await waitFor(
    'the run to pay its first batches',
    async () => {
      const r = await pool.query<{ positions: number; status: string }>(
        'SELECT positions, status FROM settlement_runs WHERE day = $1',
        [day],
      )
      const row = r.rows[0]
      return row && row.positions > 0 ? row : null
    },
    60_000,
    10,
  )
  await server.kill('SIGKILL')
  const cut = await running
  await pool.end()
  // The run was cut in the middle: the request got no answer, the run is not done.
  expect(cut.status).toBeLessThanOrEqual(0)
  expect(atKill.status).toBe('running')
  expect(atKill.positions).toBeLessThan(POSITIONS)

  await server.start()
  const started = Date.now()
  const run = await settle(day)
  const rerunMs = Date.now() - started
  expect(run.status).toBe('done')
  expect(run.positions).toBe(POSITIONS)
  // Once more: a finished day pays nothing again.
  const again = await settle(day)
  expect(again.positions).toBe(POSITIONS)
  expect(again.consensusHope).toBe(run.consensusHope)

  const after = server.openPool()
  try {
    expect(await settledPositions(after, day)).toEqual({ unsettled: 0, wrong: 0 })
    // One consensus release transfer per position, none twice.
    const releases = await after.query<{ n: number; refs: number; hope: string }>(
      `SELECT count(*)::int AS n, count(DISTINCT reference)::int AS refs, coalesce(sum(amount), 0)::text AS hope
         FROM ledger_transfers WHERE log_type = 7`,
    )
    expect(releases.rows[0]!.n).toBe(POSITIONS)
    expect(releases.rows[0]!.refs).toBe(POSITIONS)
    expect(hopeUnits(releases.rows[0]!.hope)).toBe(hopeUnits(run.consensusHope))
    const ranks = await after.query<{ unpaid: number; paid: string }>(
      `SELECT (SELECT count(*)::int FROM settlement_rank_rewards WHERE NOT paid) AS unpaid,
              (SELECT coalesce(sum(amount), 0)::text FROM ledger_transfers WHERE log_type = 11) AS paid`,
    )
    expect(ranks.rows[0]!.unpaid).toBe(0)
    expect(hopeUnits(ranks.rows[0]!.paid)).toBe(hopeUnits(run.rankHope))
  } finally {
    await after.end()
  }
  expect(await ledgerVerify(server)).toMatch(/ledger OK/)
  console.info(
    `[faults] settlement run: ${POSITIONS} positions of ${MEMBERS} members; app killed with ` +
      `${atKill.positions} paid; re-run finished in ${rerunMs} ms and paid the rest; each release once; breaks found: 0`,
  )
})
