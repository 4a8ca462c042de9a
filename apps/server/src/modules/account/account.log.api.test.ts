import type { AccountLogEntry, AccountLogPage, BalanceList, Withdrawal } from '@hope/api'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { connectChain } from '../../chain/chain.service.ts'
import { inTransaction } from '../../db/transaction.ts'
import {
  buildTestApp,
  call,
  createTestDatabase,
  databaseTargets,
  fundAccount,
  registerUser,
  type TestDatabase,
} from '../../testing/index.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import { lockWithdrawal } from '../withdraw/withdraw.repository.ts'
import type { WithdrawalEvent } from '../withdraw/withdraw.rules.ts'
import { applyWithdrawalEvent } from '../withdraw/withdraw.service.ts'

/** What a line shows: amount, log type, status and balance after. */
const shown = (e: AccountLogEntry) => [e.amount, e.logType, e.status, e.balanceAfter]

describe.each(databaseTargets())('account log of withdrawals on $name', (target) => {
  let db: TestDatabase
  let app: FastifyInstance
  let finance: string
  let n = 0
  const key = () => `log-${Date.now()}-${++n}`

  beforeAll(async () => {
    db = await createTestDatabase(target)
    // Payouts are the sender job's: the tests move withdrawals through their events themselves.
    app = await buildTestApp(db, { chain: connectChain('http://127.0.0.1:9', 31337) })
    await app.services.operators.create('fin', 'fin-password-1', 'finance')
    finance = (
      await call<'admin/login', { token: string }>(app, 'admin/login', {
        username: 'fin',
        password: 'fin-password-1',
      })
    ).body.data.token
  })
  afterAll(async () => {
    await app?.close()
    await db?.drop()
  })

  const withdraw = async (token: string, amount: string) =>
    (
      await call<'userAccount/withdraw', Withdrawal>(
        app,
        'userAccount/withdraw',
        { amount, idempotencyKey: key() },
        { token },
      )
    ).body.data
  const move = (id: number, ...events: WithdrawalEvent[]) =>
    inTransaction(db.pool, async (q) => {
      for (const event of events)
        await applyWithdrawalEvent(q, app.services.ledger, (await lockWithdrawal(q, id))!, event)
    })
  const log = async (token: string, params: Record<string, string> = {}) =>
    (
      await call<'userAccount/balanceDetail', AccountLogPage>(
        app,
        'userAccount/balanceDetail',
        params,
        { token },
      )
    ).body.data

  test('a withdrawal is a pending line from its request, done when paid out, with its fee', async () => {
    const user = await registerUser(app)
    await fundAccount(db.pool, user.id, '100')
    const w = await withdraw(user.token, '20')
    expect((await log(user.token)).list.map(shown)).toEqual([
      ['-1', 14, 'pending', '100'],
      ['-20', 1, 'pending', '100'],
      ['100', 5, 'done', '100'],
    ])
    await fundAccount(db.pool, user.id, '5')
    await move(w.id, 'approve', 'confirm', 'complete')
    const after = await log(user.token)
    // The lines stay where the request put them; the payout adds no line of its own.
    expect(after.list.map(shown)).toEqual([
      ['5', 5, 'done', '105'],
      ['-1', 14, 'done', '84'],
      ['-20', 1, 'done', '85'],
      ['100', 5, 'done', '100'],
    ])
    expect(after.list[1]!.createdAt).toBe(after.list[2]!.createdAt)
  })

  test('a rejected, a failed and a canceled withdrawal each give their money back in a refund line', async () => {
    const user = await registerUser(app)
    await fundAccount(db.pool, user.id, '100')
    const rejected = await withdraw(user.token, '10')
    const review = await call(
      app,
      'admin/reviewWithdraw',
      { id: String(rejected.id), decision: 'reject', reason: 'unknown address' },
      { token: finance },
    )
    expect(review.body.data).toMatchObject({ status: 3 })
    expect((await log(user.token)).list.map(shown)).toEqual([
      ['1', 1, 'done', '100'],
      ['10', 1, 'done', '100'],
      ['-1', 14, 'refunded', '100'],
      ['-10', 1, 'refunded', '100'],
      ['100', 5, 'done', '100'],
    ])

    const failed = await withdraw(user.token, '30')
    await move(failed.id, 'approve', 'fail')
    const canceled = await withdraw(user.token, '40')
    await call(
      app,
      'userAccount/cancelWithdraw',
      { id: String(canceled.id) },
      { token: user.token },
    )
    const refunds = await log(user.token, { logType: '1' })
    expect(refunds.list.map(shown)).toEqual([
      ['1', 1, 'done', '100'],
      ['40', 1, 'done', '100'],
      ['-40', 1, 'refunded', '100'],
      ['1', 1, 'done', '100'],
      ['30', 1, 'done', '100'],
      ['-30', 1, 'refunded', '100'],
      ['1', 1, 'done', '100'],
      ['10', 1, 'done', '100'],
      ['-10', 1, 'refunded', '100'],
    ])
    const fees = await log(user.token, { logType: '14', account: 'usdt' })
    expect(fees.list.map(shown)).toEqual([
      ['-1', 14, 'refunded', '100'],
      ['-1', 14, 'refunded', '100'],
      ['-1', 14, 'refunded', '100'],
    ])
    // What the lines say adds up to what the account holds.
    const balance = await call<'userAccount/balance', BalanceList>(
      app,
      'userAccount/balance',
      {},
      { token: user.token },
    )
    const usdt = balance.body.data.find((a) => a.kind === 'usdt')!
    const all = (await log(user.token, { pageSize: '100' })).list
    const sum = all.reduce((s, e) => s + Number(e.amount), 0)
    expect([usdt.balance, usdt.pending, String(sum)]).toEqual(['100', '0', '100'])
  })

  test('pages through reservations, refunds and entries, each line once, newest first', async () => {
    const user = await registerUser(app)
    await fundAccount(db.pool, user.id, '50')
    await fundAccount(db.pool, user.id, '3', 'node')
    const w1 = await withdraw(user.token, '10')
    await call(
      app,
      'userAccount/collect',
      { account: 'node', amount: '3', idempotencyKey: key() },
      { token: user.token },
    )
    await withdraw(user.token, '12')
    await move(w1.id, 'approve', 'fail')
    const whole = await log(user.token, { pageSize: '100' })
    const ids: string[] = []
    let cursor: string | null = null
    do {
      const page = await log(user.token, { pageSize: '1', ...(cursor ? { cursor } : {}) })
      ids.push(...page.list.map((e) => e.id))
      cursor = page.nextCursor
    } while (cursor && ids.length < 50)
    expect(ids).toEqual(whole.list.map((e) => e.id))
    expect(whole.list.map((e) => [e.account, ...shown(e)])).toEqual([
      ['usdt', '1', 1, 'done', '53'],
      ['usdt', '10', 1, 'done', '53'],
      ['usdt', '-1', 14, 'pending', '53'],
      ['usdt', '-12', 1, 'pending', '53'],
      // one transfer, two accounts of the user: one line each
      ['node', '-3', 9, 'done', '0'],
      ['usdt', '3', 9, 'done', '53'],
      ['usdt', '-1', 14, 'refunded', '50'],
      ['usdt', '-10', 1, 'refunded', '50'],
      ['node', '3', 5, 'done', '3'],
      ['usdt', '50', 5, 'done', '50'],
    ])
  })

  test('refuses a malformed cursor', async () => {
    const user = await registerUser(app)
    const res = await call(
      app,
      'userAccount/balanceDetail',
      { cursor: '12.x' },
      { token: user.token },
    )
    expect(res.body.code).toBe(400)
  })

  test('the ledger verifies clean', async () => {
    expect((await verifyLedger(db.pool)).problems).toEqual([])
  })
})
