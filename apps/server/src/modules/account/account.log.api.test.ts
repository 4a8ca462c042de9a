import type { AccountLogEntry, AccountLogPage, BalanceList, Withdrawal } from '@hope/api'
import fc from 'fast-check'
import { beforeAll, describe, expect, test } from 'vitest'
import { connectChain } from '../../chain/chain.service.ts'
import { inTransaction } from '../../db/transaction.ts'
import {
  call,
  databaseTargets,
  fundAccount,
  keyMaker,
  newOperator,
  registerUser,
  useTestApp,
} from '../../testing/index.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import { lockWithdrawal } from '../withdraw/withdraw.repository.ts'
import type { WithdrawalEvent } from '../withdraw/withdraw.rules.ts'
import { applyWithdrawalEvent } from '../withdraw/withdraw.service.ts'

/** A decimal string in 10^-18 units. */
const units = (amount: string): bigint => {
  const [whole = '0', fraction = ''] = amount.replace('-', '').split('.')
  const value = BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, '0') || '0')
  return amount.startsWith('-') ? -value : value
}

/** What a line shows: amount, log type, status and balance after. */
const shown = (e: AccountLogEntry) => [e.amount, e.logType, e.status, e.balanceAfter]

describe.each(databaseTargets())('account log of withdrawals on $name', (target) => {
  // Payouts are the sender job's: the tests move withdrawals through their events themselves.
  const t = useTestApp(target, { chain: connectChain('http://127.0.0.1:9', 31337) })
  let finance: string
  const key = keyMaker('log')

  beforeAll(async () => {
    finance = await newOperator(t.app, 'fin', 'finance')
  })

  const withdraw = async (token: string, amount: string) =>
    (
      await call<'userAccount/withdraw', Withdrawal>(
        t.app,
        'userAccount/withdraw',
        { amount, idempotencyKey: key() },
        { token },
      )
    ).body.data
  const move = (id: number, ...events: WithdrawalEvent[]) =>
    inTransaction(t.db.pool, async (q) => {
      for (const event of events)
        await applyWithdrawalEvent(q, t.app.services.ledger, (await lockWithdrawal(q, id))!, event)
    })
  const log = async (token: string, params: Record<string, string> = {}) =>
    (
      await call<'userAccount/balanceDetail', AccountLogPage>(
        t.app,
        'userAccount/balanceDetail',
        params,
        { token },
      )
    ).body.data

  test('a withdrawal is a pending line from its request, done when paid out, with its fee', async () => {
    const user = await registerUser(t.app)
    await fundAccount(t.db.pool, user.id, '100')
    const w = await withdraw(user.token, '20')
    expect((await log(user.token)).list.map(shown)).toEqual([
      ['-1', 14, 'pending', '79'],
      ['-20', 1, 'pending', '80'],
      ['100', 5, 'done', '100'],
    ])
    await fundAccount(t.db.pool, user.id, '5')
    await move(w.id, 'approve', 'confirm', 'complete')
    const after = await log(user.token)
    // The lines stay where the request put them; the payout adds no line of its own.
    expect(after.list.map(shown)).toEqual([
      ['5', 5, 'done', '84'],
      ['-1', 14, 'done', '79'],
      ['-20', 1, 'done', '80'],
      ['100', 5, 'done', '100'],
    ])
    expect(after.list[1]!.createdAt).toBe(after.list[2]!.createdAt)
  })

  test('a rejected, a failed and a canceled withdrawal each give their money back in a refund line', async () => {
    const user = await registerUser(t.app)
    await fundAccount(t.db.pool, user.id, '100')
    const rejected = await withdraw(user.token, '10')
    const review = await t.as(finance, 'admin/reviewWithdraw', {
      id: String(rejected.id),
      decision: 'reject',
      reason: 'unknown address',
    })
    expect(review.body.data).toMatchObject({ status: 3 })
    expect((await log(user.token)).list.map(shown)).toEqual([
      ['1', 1, 'done', '100'],
      ['10', 1, 'done', '99'],
      ['-1', 14, 'refunded', '89'],
      ['-10', 1, 'refunded', '90'],
      ['100', 5, 'done', '100'],
    ])
    // Each line says which part of the withdrawal it is.
    expect((await log(user.token)).list.map((e) => e.withdrawal)).toEqual([
      'feeRefund',
      'amountRefund',
      'fee',
      'amount',
      null,
    ])

    const failed = await withdraw(user.token, '30')
    await move(failed.id, 'approve', 'fail')
    const canceled = await withdraw(user.token, '40')
    await t.as(user, 'userAccount/cancelWithdraw', { id: String(canceled.id) })
    const refunds = await log(user.token, { logType: '1' })
    expect(refunds.list.map(shown)).toEqual([
      ['1', 1, 'done', '100'],
      ['40', 1, 'done', '99'],
      ['-40', 1, 'refunded', '60'],
      ['1', 1, 'done', '100'],
      ['30', 1, 'done', '99'],
      ['-30', 1, 'refunded', '70'],
      ['1', 1, 'done', '100'],
      ['10', 1, 'done', '99'],
      ['-10', 1, 'refunded', '90'],
    ])
    const fees = await log(user.token, { logType: '14', account: 'usdt' })
    expect(fees.list.map(shown)).toEqual([
      ['-1', 14, 'refunded', '59'],
      ['-1', 14, 'refunded', '69'],
      ['-1', 14, 'refunded', '89'],
    ])
    // What the lines say adds up to what the account holds.
    const balance = await t.as<'userAccount/balance', BalanceList>(user, 'userAccount/balance')
    const usdt = balance.body.data.find((a) => a.kind === 'usdt')!
    const all = (await log(user.token, { pageSize: '100' })).list
    const sum = all.reduce((s, e) => s + Number(e.amount), 0)
    expect([usdt.balance, usdt.pending, String(sum)]).toEqual(['100', '0', '100'])
  })

  test('pages through reservations, refunds and entries, each line once, newest first', async () => {
    const user = await registerUser(t.app)
    await fundAccount(t.db.pool, user.id, '50')
    await fundAccount(t.db.pool, user.id, '3', 'node')
    const w1 = await withdraw(user.token, '10')
    await t.as(user, 'userAccount/collect', { account: 'node', amount: '3', idempotencyKey: key() })
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
      ['usdt', '1', 1, 'done', '40'],
      ['usdt', '10', 1, 'done', '39'],
      ['usdt', '-1', 14, 'pending', '29'],
      ['usdt', '-12', 1, 'pending', '30'],
      // one transfer, two accounts of the user: one line each
      ['node', '-3', 9, 'done', '0'],
      ['usdt', '3', 9, 'done', '42'],
      ['usdt', '-1', 14, 'refunded', '39'],
      ['usdt', '-10', 1, 'refunded', '40'],
      ['node', '3', 5, 'done', '3'],
      ['usdt', '50', 5, 'done', '50'],
    ])
  })

  test('refuses a malformed cursor', async () => {
    const user = await registerUser(t.app)
    const res = await t.as(user, 'userAccount/balanceDetail', { cursor: '12.x' })
    expect(res.body.code).toBe(400)
  })

  test('whatever happens to withdrawals, each line is the line before plus its amount', async () => {
    const step = fc.oneof(
      fc.record({ op: fc.constant('withdraw' as const), amount: fc.integer({ min: 10, max: 40 }) }),
      fc.record({ op: fc.constant('fund' as const), amount: fc.integer({ min: 1, max: 30 }) }),
      fc.record({
        op: fc.constantFrom('cancel' as const, 'reject' as const, 'fail' as const, 'pay' as const),
        pick: fc.nat(),
      }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const user = await registerUser(t.app)
        await fundAccount(t.db.pool, user.id, '60.5')
        const open: number[] = []
        for (const s of steps) {
          if (s.op === 'fund') await fundAccount(t.db.pool, user.id, String(s.amount))
          else if (s.op === 'withdraw') {
            const res = await t.as<'userAccount/withdraw', Withdrawal>(
              user,
              'userAccount/withdraw',
              { amount: `${s.amount}.25`, idempotencyKey: key() },
            )
            if (res.body.code === 200) open.push(res.body.data.id)
          } else if (open.length > 0) {
            const [id] = open.splice(s.pick % open.length, 1)
            if (s.op === 'cancel')
              await t.as(user, 'userAccount/cancelWithdraw', { id: String(id) })
            else if (s.op === 'reject')
              await t.as(finance, 'admin/reviewWithdraw', {
                id: String(id),
                decision: 'reject',
                reason: 'checked',
              })
            else if (s.op === 'fail') await move(id!, 'approve', 'fail')
            else await move(id!, 'approve', 'confirm', 'complete')
          }
        }
        const lines = (await log(user.token, { account: 'usdt', pageSize: '100' })).list.reverse()
        let balance = 0n
        for (const line of lines) {
          balance += units(line.amount)
          expect(units(line.balanceAfter), JSON.stringify(line)).toBe(balance)
        }
        const usdt = (
          await t.as<'userAccount/balance', BalanceList>(user, 'userAccount/balance')
        ).body.data.find((a) => a.kind === 'usdt')!
        expect(balance).toBe(units(usdt.available))
      }),
      { numRuns: 10 },
    )
  })

  test('the ledger verifies clean', async () => {
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })
})
