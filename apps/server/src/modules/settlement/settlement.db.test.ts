import { parseAmount, trimDecimal } from '@hope/api'
import type pg from 'pg'
import { beforeAll, describe, expect, test } from 'vitest'
import { createLedgerService } from '../ledger/ledger.service.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import { createSettingsService } from '../settings/settings.service.ts'
import { databaseTargets, useTestDatabase } from '../../testing/index.ts'
import { createSaleService } from '../sale/sale.service.ts'
import { differential, rankOf, rankRate } from '../team/team.rules.ts'
import { generateEconomy } from '../../../test-support/settlement.generate.ts'
import { createSettlementJob } from './settlement.job.ts'
import { createSettlementService } from './settlement.service.ts'

const POSITIONS = 10_000

describe.each(databaseTargets())('daily settlement on $name', (target) => {
  const t = useTestDatabase(target)
  let settlement: ReturnType<typeof createSettlementService>
  let job: ReturnType<typeof createSettlementJob>
  let settings: ReturnType<typeof createSettingsService>
  beforeAll(async () => {
    const ledger = createLedgerService(t.db.pool)
    settings = createSettingsService(t.db.pool)
    const sale = createSaleService({ pool: t.db.pool, ledger, settings })
    settlement = createSettlementService({ pool: t.db.pool, ledger, settings, sale })
    job = createSettlementJob({ pool: t.db.pool, settings, settlement })
    await generateEconomy(t.db.pool, { users: 1_000, positions: POSITIONS, prefix: 'settle' })
    await t.db.pool.query(
      `UPDATE users SET is_robot = true WHERE id IN (SELECT id FROM users ORDER BY id DESC LIMIT 10)`,
    )
  }, 120_000)

  const paidFor = async (day: string) =>
    (
      await t.db.pool.query<{ n: string; total: string; distinct: string }>(
        `SELECT count(*)::text AS n, coalesce(sum(amount), 0)::text AS total,
                count(DISTINCT reference)::text AS distinct
           FROM ledger_transfers WHERE log_type = 7 AND request_key LIKE $1`,
        [`settle:${day}:%`],
      )
    ).rows[0]!

  test(`${POSITIONS} positions: a crash halfway, then resume, pays each exactly once`, async () => {
    const robots = await t.db.pool.query<{ n: string; expected: string }>(
      `SELECT count(*) FILTER (WHERE u.is_robot)::text AS n,
              sum(CASE WHEN u.is_robot THEN 0 ELSE trunc(p.principal * 0.005 / 0.1, 18) END)::text AS expected
         FROM stake_positions p JOIN users u ON u.id = p.user_id`,
    )
    const day = '2030-01-01'
    await expect(
      settlement.settle(day, {
        afterBatch: (n) => {
          if (n === 4) throw new Error('injected crash')
        },
      }),
    ).rejects.toThrow('injected crash')
    const half = await paidFor(day)
    expect(Number(half.n)).toBeGreaterThan(0)
    expect(Number(half.n)).toBeLessThan(POSITIONS)

    const run = await settlement.settle(day)
    expect(run).toMatchObject({ status: 'done', positions: POSITIONS })
    const full = await paidFor(day)
    expect(Number(full.n)).toBe(POSITIONS - Number(robots.rows[0]!.n))
    expect(full.distinct).toBe(full.n)
    expect(full.total).toBe(robots.rows[0]!.expected)

    const again = await settlement.settle(day)
    expect(again.positions).toBe(POSITIONS)
    expect(await paidFor(day)).toEqual(full)
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  }, 180_000)

  test('the schedule settles the due day once', async () => {
    // 2030-01-03 08:00 in UTC+8: 2030-01-02 is due
    const now = Date.parse('2030-01-03T00:00:00Z')
    expect(await job.settleDue(now)).toEqual({ settled: POSITIONS })
    expect(await job.settleDue(now + 60_000)).toEqual({ settled: 0 })
    expect((await paidFor('2030-01-02')).n).toBe((await paidFor('2030-01-01')).n)
  }, 120_000)

  test('rank rewards follow the differential of each member’s uplines, worked out in SQL', async () => {
    const thresholds = ['200', '1000', '3000', '8000', '20000']
    await settings.set('rankThresholdsUsdt', thresholds, 'test')
    const day = '2030-01-05'
    const run = await settlement.settle(day)
    expect(run.status).toBe('done')
    const q = async <T extends object>(sql: string, params: unknown[] = []) =>
      (await t.db.pool.query<T & pg.QueryResultRow>(sql, params)).rows
    const units = (v: string) => parseAmount(trimDecimal(v), 6)!
    const values = await q<{ user_id: string; value: string }>(
      'SELECT user_id::text, value::text FROM settlement_user_values WHERE run_id = $1',
      [run.id],
    )
    const users = new Map(
      (
        await q<{ id: string; ancestors: string[]; is_robot: boolean }>(
          'SELECT id::text, ancestor_ids::text[] AS ancestors, is_robot FROM users',
        )
      ).map((u) => [u.id, u]),
    )
    const partitions = new Map<string, bigint[]>()
    for (const t of await q<{ user_id: string; consensus: string }>(
      'SELECT user_id::text, consensus::text FROM team_stats',
    ))
      partitions.set(t.user_id, [...(partitions.get(t.user_id) ?? []), units(t.consensus)])
    const rates = ['0.01', '0.02', '0.03', '0.04', '0.05'].map((r) => units(r))
    const rateOf = (id: string) =>
      users.get(id)!.is_robot
        ? 0n
        : rankRate(rankOf(partitions.get(id) ?? [], thresholds.map(units)), rates)
    const expected = new Map<string, bigint>()
    for (const v of values) {
      const uplines = [...users.get(v.user_id)!.ancestors].reverse()
      for (const r of differential(
        units(v.value),
        uplines.map((id) => ({ id: Number(id), rate: rateOf(id), isRobot: false })),
      ))
        expected.set(String(r.userId), (expected.get(String(r.userId)) ?? 0n) + r.value)
    }
    const actual = await q<{ user_id: string; value: string; paid: boolean }>(
      'SELECT user_id::text, value::text, paid FROM settlement_rank_rewards WHERE run_id = $1',
      [run.id],
    )
    expect(actual.length).toBeGreaterThan(5)
    expect(actual.every((a) => a.paid)).toBe(true)
    const got = new Map(actual.map((a) => [a.user_id, units(a.value)]))
    const diff = [...new Set([...got.keys(), ...expected.keys()])]
      .filter((k) => got.get(k) !== expected.get(k))
      .map((k) => `${k}: ${got.get(k)} vs ${expected.get(k)}`)
    expect(diff).toEqual([])
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  }, 120_000)
})
