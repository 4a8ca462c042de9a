import type { AccountLogPage, BalanceAdjustResult } from '@hope/api'
import { beforeAll, describe, expect, test } from 'vitest'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import {
  call,
  databaseTargets,
  keyMaker,
  newOperator,
  registerUser,
  useTestApp,
  type TestUser,
} from '../../testing/index.ts'

describe.each(databaseTargets())('operator API on $name', (target) => {
  const t = useTestApp(target)
  let finance: string
  let content: string
  let user: TestUser
  const key = keyMaker('op')

  beforeAll(async () => {
    finance = await newOperator(t.app, 'fin', 'finance')
    content = await newOperator(t.app, 'cms', 'content')
    user = await registerUser(t.app)
  })

  test('login refuses a wrong password and an unknown operator alike', async () => {
    for (const params of [
      { username: 'fin', password: 'nope' },
      { username: 'ghost', password: 'fin-password-1' },
    ]) {
      const res = await call(t.app, 'admin/login', params, { lang: 'en' })
      expect(res.status).toBe(401)
      expect(res.body).toMatchObject({
        reason: 'operator_login_failed',
        msg: 'Wrong username, password or verification code',
      })
    }
  })

  test('a credit moves treasury money in, with log 5 and an audit row of before and after', async () => {
    const k = key()
    const params = {
      userName: user.userName,
      account: 'usdt',
      amount: '100.5',
      reason: 'compensation #12',
      idempotencyKey: k,
    }
    const res = await t.as<'admin/credit', BalanceAdjustResult>(finance, 'admin/credit', params)
    expect(res.body.data).toMatchObject({
      account: 'usdt',
      amount: '100.5',
      before: '0',
      after: '100.5',
      replayed: false,
    })
    const again = await t.as<'admin/credit', BalanceAdjustResult>(finance, 'admin/credit', params)
    expect(again.body.data).toMatchObject({ replayed: true, after: '100.5' })
    const audit = await t.db.pool.query(
      `SELECT a.action, a.reason, a.before, a.after, o.username FROM operator_audit a JOIN operators o ON o.id = a.operator_id`,
    )
    expect(audit.rows).toEqual([
      {
        action: 'backend_recharge',
        reason: 'compensation #12',
        before: { balance: '0' },
        after: { balance: '100.5' },
        username: 'fin',
      },
    ])
    const log = await t.as<'userAccount/balanceDetail', AccountLogPage>(
      user,
      'userAccount/balanceDetail',
    )
    expect(log.body.data.list[0]).toMatchObject({ amount: '100.5', logType: 5 })
  })

  test('a debit takes money back with log 6 and never below zero', async () => {
    const over = await t.as(finance, 'admin/debit', {
      userName: user.userName,
      account: 'usdt',
      amount: '1000',
      reason: 'x',
      idempotencyKey: key(),
    })
    expect(over.body.reason).toBe('insufficient_balance')
    const res = await t.as<'admin/debit', BalanceAdjustResult>(finance, 'admin/debit', {
      userName: user.userName,
      account: 'usdt',
      amount: '0.5',
      reason: 'fee correction',
      idempotencyKey: key(),
    })
    expect(res.body.data).toMatchObject({ before: '100.5', after: '100' })
  })

  test('HOPE accounts take 18 decimals; more, zero or negative are refused', async () => {
    const ok = await t.as<'admin/credit', BalanceAdjustResult>(finance, 'admin/credit', {
      userName: user.userName,
      account: 'community',
      amount: '0.000000000000000001',
      reason: 'r',
      idempotencyKey: key(),
    })
    expect(ok.body.data.after).toBe('0.000000000000000001')
    for (const amount of ['0.0000000000000000001', '0', '-1', 'abc']) {
      const res = await t.as(finance, 'admin/credit', {
        userName: user.userName,
        account: 'community',
        amount,
        reason: 'r',
        idempotencyKey: key(),
      })
      expect(res.body.reason).toBe('amount_invalid')
    }
    const usdtTooFine = await t.as(finance, 'admin/credit', {
      userName: user.userName,
      account: 'usdt',
      amount: '0.0000001',
      reason: 'r',
      idempotencyKey: key(),
    })
    expect(usdtTooFine.body.reason).toBe('amount_invalid')
  })

  test('roles: a content operator and a user token are refused, and so is no reason', async () => {
    const params = {
      userName: user.userName,
      account: 'usdt',
      amount: '1',
      reason: 'r',
      idempotencyKey: key(),
    }
    expect((await t.as(content, 'admin/credit', params)).body.reason).toBe('forbidden')
    expect((await t.as(user, 'admin/credit', params)).body.reason).toBe('session_expired')
    expect((await call(t.app, 'admin/credit', params)).body.reason).toBe('not_logged_in')
    expect((await t.as(finance, 'admin/credit', { ...params, reason: '' })).body.reason).toBe(
      'invalid_params',
    )
    expect(
      (await t.as(finance, 'admin/credit', { ...params, userName: '0x' + '0'.repeat(40) })).body
        .reason,
    ).toBe('not_registered')
  })

  test('the ledger verifies clean', async () => {
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })
})
