import type { Page, Withdrawal } from '@hope/api'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { connectChain } from '../../chain/chain.service.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import {
  buildTestApp,
  call,
  createTestDatabase,
  databaseTargets,
  fundAccount,
  registerUser,
  type TestDatabase,
} from '../../testing/index.ts'

describe.each(databaseTargets())('withdraw API on $name', (target) => {
  let db: TestDatabase
  let app: FastifyInstance
  let finance: string
  let n = 0
  const key = () => `wd-${Date.now()}-${++n}`

  beforeAll(async () => {
    db = await createTestDatabase(target)
    // Payouts are the sender job's; these tests never reach the chain.
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

  async function funded(amount: string) {
    const user = await registerUser(app)
    await fundAccount(db.pool, user.id, amount)
    return user
  }
  const usdt = async (userId: number) =>
    (
      await db.pool.query(
        `SELECT balance::text AS b, debits_pending::text AS p FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt'`,
        [userId],
      )
    ).rows[0] as { b: string; p: string }
  const withdraw = (token: string, params: Record<string, string>) =>
    call<'userAccount/withdraw', Withdrawal>(app, 'userAccount/withdraw', params, { token })

  test('reserves amount + fee at once, to the user’s own address by default', async () => {
    const user = await funded('100')
    const res = await withdraw(user.token, { amount: '20', idempotencyKey: key() })
    expect(res.body.data).toMatchObject({
      amount: '20',
      fee: '1',
      address: user.userName,
      status: 0,
    })
    expect(await usdt(user.id)).toMatchObject({
      b: '100.000000000000000000',
      p: '21.000000000000000000',
    })
    const list = await call<'userAccount/myWithDraw', Page<Withdrawal>>(
      app,
      'userAccount/myWithDraw',
      {},
      { token: user.token },
    )
    expect(list.body.data.total).toBe(1)
  })

  test('the spec messages: below the minimum, missing amount; more than available is refused', async () => {
    const user = await funded('15')
    const low = await call(
      app,
      'userAccount/withdraw',
      { amount: '9.99', idempotencyKey: key() },
      { token: user.token, lang: 'en' },
    )
    expect(low.body).toMatchObject({
      reason: 'amount_below_minimum',
      msg: 'The withdrawal amount cannot be less than the minimum withdrawal amount',
    })
    const none = await call(
      app,
      'userAccount/withdraw',
      { idempotencyKey: key() },
      { token: user.token },
    )
    expect(none.body.reason).toBe('amount_required')
    const over = await withdraw(user.token, { amount: '14.5', idempotencyKey: key() })
    expect(over.body.reason).toBe('insufficient_balance')
    expect(await usdt(user.id)).toMatchObject({ p: '0.000000000000000000' })
  })

  test('a double tap reserves once', async () => {
    const user = await funded('100')
    const k = key()
    const [a, b] = await Promise.all([
      withdraw(user.token, { amount: '30', idempotencyKey: k }),
      withdraw(user.token, { amount: '30', idempotencyKey: k }),
    ])
    expect(a.body.data.id).toBe(b.body.data.id)
    expect(await usdt(user.id)).toMatchObject({ p: '31.000000000000000000' })
  })

  test('a storm of concurrent requests never reserves more than the balance', async () => {
    const user = await funded('100')
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        withdraw(user.token, { amount: '20', idempotencyKey: key() }),
      ),
    )
    const accepted = results.filter((r) => r.body.code === 200).length
    expect(accepted).toBe(4)
    expect(results.filter((r) => r.body.reason === 'insufficient_balance')).toHaveLength(8)
    expect(await usdt(user.id)).toMatchObject({ p: '84.000000000000000000' })
  })

  test('cancel and reject refund exactly once; approve moves on; illegal moves are refused', async () => {
    const user = await funded('100')
    const w1 = (await withdraw(user.token, { amount: '10', idempotencyKey: key() })).body.data
    const w2 = (await withdraw(user.token, { amount: '10', idempotencyKey: key() })).body.data
    const w3 = (await withdraw(user.token, { amount: '10', idempotencyKey: key() })).body.data
    expect(
      (await call(app, 'userAccount/cancelWithdraw', { id: String(w1.id) }, { token: user.token }))
        .body.data,
    ).toMatchObject({ status: 6 })
    expect(
      (await call(app, 'userAccount/cancelWithdraw', { id: String(w1.id) }, { token: user.token }))
        .body.reason,
    ).toBe('withdrawal_state')
    const rejected = await call(
      app,
      'admin/reviewWithdraw',
      { id: String(w2.id), decision: 'reject', reason: 'address on a sanctions list' },
      { token: finance },
    )
    expect(rejected.body.data).toMatchObject({
      status: 3,
      reviewReason: 'address on a sanctions list',
    })
    expect(
      (
        await call(
          app,
          'admin/reviewWithdraw',
          { id: String(w2.id), decision: 'approve' },
          { token: finance },
        )
      ).body.reason,
    ).toBe('withdrawal_state')
    expect(
      (
        await call(
          app,
          'admin/reviewWithdraw',
          { id: String(w3.id), decision: 'approve' },
          { token: finance },
        )
      ).body.data,
    ).toMatchObject({ status: 1 })
    expect(
      (await call(app, 'userAccount/cancelWithdraw', { id: String(w3.id) }, { token: user.token }))
        .body.reason,
    ).toBe('withdrawal_state')
    expect(await usdt(user.id)).toMatchObject({
      b: '100.000000000000000000',
      p: '11.000000000000000000',
    })
  })

  test('someone else’s withdrawal cannot be canceled; a user token cannot review', async () => {
    const owner = await funded('50')
    const other = await funded('50')
    const w = (await withdraw(owner.token, { amount: '10', idempotencyKey: key() })).body.data
    expect(
      (await call(app, 'userAccount/cancelWithdraw', { id: String(w.id) }, { token: other.token }))
        .body.reason,
    ).toBe('not_found')
    expect(
      (
        await call(
          app,
          'admin/reviewWithdraw',
          { id: String(w.id), decision: 'approve' },
          { token: owner.token },
        )
      ).body.reason,
    ).toBe('session_expired')
  })

  test('the ledger verifies clean', async () => {
    expect((await verifyLedger(db.pool)).problems).toEqual([])
  })
})
