import type { AccountFigures, RedeemResult } from '@hope/api'
import type pg from 'pg'
import { beforeAll, describe, expect, test } from 'vitest'
import { inTransaction } from '../../db/transaction.ts'
import {
  call,
  databaseTargets,
  fundAccount,
  keyMaker,
  registerUser,
  useTestApp,
  type TestUser,
} from '../../testing/index.ts'
import { createFiguresService } from './figures.service.ts'

describe.each(databaseTargets())('account figures on $name', (target) => {
  const t = useTestApp(target)
  // alice → bob
  let alice: TestUser
  let bob: typeof alice
  const key = keyMaker('figures')

  beforeAll(async () => {
    alice = await registerUser(t.app)
    bob = await registerUser(t.app, alice.userName)
  })

  const figuresOf = async (user: { token: string }) => {
    const res = await t.as<'userAccount/figures', AccountFigures>(user, 'userAccount/figures')
    expect(res.status).toBe(200)
    return res.body.data
  }

  /** What the running totals must hold: every user's USDT lines summed in one pass. */
  const summedFromLedger = async () =>
    (
      await t.db.pool.query<{ userId: number; trading: string; total: string }>(
        `SELECT e.user_id::int AS "userId",
                trim_scale(coalesce(sum(abs(e.amount)) FILTER (WHERE t.log_type IN (2, 15, 16)), 0))::text AS trading,
                trim_scale(sum(abs(e.amount)))::text AS total
         FROM ledger_entries e
         JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'usdt'
         JOIN ledger_transfers t ON t.id = e.transfer_id
         GROUP BY e.user_id ORDER BY e.user_id`,
      )
    ).rows
  const stored = async () =>
    (
      await t.db.pool.query<{ userId: number; trading: string; total: string }>(
        `SELECT user_id::int AS "userId", trim_scale(trading_usdt)::text AS trading,
                trim_scale(total_usdt)::text AS total
         FROM account_volumes WHERE total_usdt > 0 ORDER BY user_id`,
      )
    ).rows

  test('a recharge, a transfer, a consensus entry and a redemption, once the job has run', async () => {
    await fundAccount(t.db.pool, bob.id, '1000')
    await fundAccount(t.db.pool, alice.id, '500')
    const transfer = await t.as(alice, 'userAccount/transfer', {
      address: bob.userName,
      amount: '50',
      idempotencyKey: key(),
    })
    expect(transfer.body.code).toBe(200)
    const entry = await t.as(bob, 'game/change', { amount: '100', idempotencyKey: key() })
    expect(entry.body.code).toBe(200)
    await fundAccount(t.db.pool, bob.id, '100', 'community')
    const redemption = await t.as<'game/sqChange', RedeemResult>(bob, 'game/sqChange', {
      amount: '40',
      idempotencyKey: key(),
    })
    expect(redemption.body.code).toBe(200)
    const { gross, fee } = redemption.body.data

    // Nothing counted yet: the volumes are zero and say so.
    expect(await figuresOf(bob)).toEqual({
      rateOfReturn: '0',
      tradingVolume: '0',
      totalVolume: '0',
      asOf: null,
    })

    const before = Date.now()
    expect((await t.app.services.figures.countVolumes()).lines).toBeGreaterThan(0)
    // Released value of a quarter of the principal.
    await t.db.pool.query('UPDATE stake_positions SET released = 25 WHERE user_id = $1', [bob.id])

    const figures = await figuresOf(bob)
    const cents = (v: string) => Math.round(Number(v) * 1e6)
    expect(figures.rateOfReturn).toBe('25')
    // consensus entry 100 + redemption proceeds
    expect(cents(figures.tradingVolume)).toBe(cents('100') + cents(gross))
    // recharge 1000 + transfer in 50 + entry 100 + proceeds + redemption fee
    expect(cents(figures.totalVolume)).toBe(
      cents('1000') + cents('50') + cents('100') + cents(gross) + cents(fee),
    )
    expect(Date.parse(figures.asOf!)).toBeGreaterThanOrEqual(before - 1000)
    expect(await stored()).toEqual(await summedFromLedger())

    // Alice: a recharge and a transfer out (with its fee, if any): no trade.
    const hers = await figuresOf(alice)
    expect(hers).toMatchObject({ rateOfReturn: null, tradingVolume: '0' })
    expect(Number(hers.totalVolume)).toBeGreaterThanOrEqual(550)
  })

  test('counts each line once: again, after a crash mid-batch, in batches of one', async () => {
    await fundAccount(t.db.pool, bob.id, '7')
    await fundAccount(t.db.pool, alice.id, '3')
    const figures = t.app.services.figures
    // A batch that dies before its transaction commits leaves no trace.
    const horizon = await t.db.pool.connect().then(async (q) => {
      try {
        return await figures.settledHorizon(q)
      } finally {
        q.release()
      }
    })
    expect(horizon).not.toBeNull()
    await expect(
      inTransaction(t.db.pool, async (q) => {
        await figures.countBatch(q, horizon!)
        throw new Error('crash')
      }),
    ).rejects.toThrow('crash')
    expect(await stored()).not.toEqual(await summedFromLedger())

    // A counter reading one transfer per batch, run until it has caught up.
    const small = createFiguresService({
      pool: t.db.pool,
      consensus: t.app.services.staking.summary,
      batchSize: 1,
      batchesPerRun: 1,
    })
    await fundAccount(t.db.pool, bob.id, '11')
    for (let run = 0; run < 20; run += 1) await small.countVolumes()
    await figures.countVolumes()
    await figures.countVolumes()
    expect(await stored()).toEqual(await summedFromLedger())
  })

  test('a ledger transaction still open holds the count back until it commits', async () => {
    await t.app.services.figures.countVolumes()
    const open = await t.db.pool.connect()
    try {
      await open.query('BEGIN')
      // The open transaction takes a transfer id; a later one commits a higher id first.
      await fundAccount(open as unknown as pg.Pool, bob.id, '13')
      const carol = await registerUser(t.app, alice.userName)
      const transfer = await t.as(alice, 'userAccount/transfer', {
        address: carol.userName,
        amount: '17',
        idempotencyKey: key(),
      })
      expect(transfer.body.code).toBe(200)
      await t.app.services.figures.countVolumes()
      await t.app.services.figures.countVolumes()
      await open.query('COMMIT')
    } finally {
      open.release()
    }
    await t.app.services.figures.countVolumes()
    expect(await stored()).toEqual(await summedFromLedger())
  })

  test('needs a session', async () => {
    const res = await call(t.app, 'userAccount/figures', {})
    expect(res.body.reason).toBe('not_logged_in')
  })
})
