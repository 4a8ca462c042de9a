import type { NoticePage, Page, Withdrawal } from '@hope/api'
import { beforeAll, describe, expect, test } from 'vitest'
import { connectChain } from '../../chain/chain.service.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import {
  call,
  databaseTargets,
  fundAccount,
  keyMaker,
  newOperator,
  registerUser,
  useTestApp,
} from '../../testing/index.ts'

describe.each(databaseTargets())('withdraw API on $name', (target) => {
  // Payouts are the sender job's; these tests never reach the chain.
  const t = useTestApp(target, { chain: connectChain('http://127.0.0.1:9', 31337) })
  let finance: string
  const key = keyMaker('wd')

  beforeAll(async () => {
    finance = await newOperator(t.app, 'fin', 'finance')
  })

  async function funded(amount: string) {
    const user = await registerUser(t.app)
    await fundAccount(t.db.pool, user.id, amount)
    return user
  }
  const usdt = async (userId: number) =>
    (
      await t.db.pool.query(
        `SELECT balance::text AS b, debits_pending::text AS p FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt'`,
        [userId],
      )
    ).rows[0] as { b: string; p: string }
  const withdraw = (token: string, params: Record<string, string>) =>
    call<'userAccount/withdraw', Withdrawal>(t.app, 'userAccount/withdraw', params, { token })
  const cancel = (id: number, token: string) =>
    call<'userAccount/cancelWithdraw', Withdrawal>(
      t.app,
      'userAccount/cancelWithdraw',
      { id: String(id) },
      { token },
    )
  /** An operator's review, the finance operator's unless another token is given. */
  const review = (
    id: number,
    decision: 'approve' | 'reject',
    opts: { reason?: string; token?: string; lang?: 'en' } = {},
  ) =>
    call<'admin/reviewWithdraw', Withdrawal>(
      t.app,
      'admin/reviewWithdraw',
      { id: String(id), decision, reason: opts.reason },
      { token: opts.token ?? finance, ...(opts.lang ? { lang: opts.lang } : {}) },
    )

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
    const list = await t.as<'userAccount/myWithDraw', Page<Withdrawal>>(
      user,
      'userAccount/myWithDraw',
    )
    expect(list.body.data.total).toBe(1)
  })

  test('the spec messages: below the minimum, missing amount; more than available is refused', async () => {
    const user = await funded('15')
    const low = await call(
      t.app,
      'userAccount/withdraw',
      { amount: '9.99', idempotencyKey: key() },
      { token: user.token, lang: 'en' },
    )
    expect(low.body).toMatchObject({
      reason: 'amount_below_minimum',
      msg: 'The withdrawal amount cannot be less than the minimum withdrawal amount',
    })
    const none = await t.as(user, 'userAccount/withdraw', { idempotencyKey: key() })
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
    expect((await cancel(w1.id, user.token)).body.data).toMatchObject({ status: 6 })
    expect((await cancel(w1.id, user.token)).body.reason).toBe('withdrawal_state')
    const rejected = await review(w2.id, 'reject', { reason: 'address on a sanctions list' })
    expect(rejected.body.data).toMatchObject({
      status: 3,
      reviewReason: 'address on a sanctions list',
    })
    expect((await review(w2.id, 'approve')).body.reason).toBe('withdrawal_state')
    expect((await review(w3.id, 'approve')).body.data).toMatchObject({ status: 1 })
    expect((await cancel(w3.id, user.token)).body.reason).toBe('withdrawal_state')
    expect(await usdt(user.id)).toMatchObject({
      b: '100.000000000000000000',
      p: '11.000000000000000000',
    })
  })

  test('a cancelled withdrawal is said in the bell, once', async () => {
    const user = await funded('50')
    const w = (await withdraw(user.token, { amount: '12', idempotencyKey: key() })).body.data
    await cancel(w.id, user.token)
    await cancel(w.id, user.token)
    const page = await t.as<'userAccount/notices', NoticePage>(user, 'userAccount/notices', {
      pageNum: '1',
      pageSize: '10',
    })
    const cancelled = page.body.data.list.filter((n) => n.kind === 'withdrawal_cancelled')
    expect(cancelled.map((n) => n.detail)).toEqual([
      { address: w.address, amount: '12', withdrawalId: w.id },
    ])
  })

  test('someone else’s withdrawal cannot be canceled; a user token cannot review', async () => {
    const owner = await funded('50')
    const other = await funded('50')
    const w = (await withdraw(owner.token, { amount: '10', idempotencyKey: key() })).body.data
    expect((await cancel(w.id, other.token)).body.reason).toBe('not_found')
    expect((await review(w.id, 'approve', { token: owner.token })).body.reason).toBe(
      'session_expired',
    )
  })

  test('per-user daily and monthly limits: above them the answer says what is left', async () => {
    const settings = t.app.services.settings
    await settings.set('withdrawDailyLimitUsdt', '100', 'test')
    await settings.set('withdrawMonthlyLimitUsdt', '150', 'test')
    try {
      const user = await funded('1000')
      expect((await withdraw(user.token, { amount: '60', idempotencyKey: key() })).body.code).toBe(
        200,
      )
      const over = await withdraw(user.token, { amount: '41', idempotencyKey: key() })
      expect(over.status).toBe(400)
      expect(over.body).toMatchObject({
        reason: 'withdraw_limit_reached',
        msg: '已超出你的提现限额，目前还可提现: 40 USDT',
      })
      // Refused, nothing reserved: only the first 60 + 1 fee is pending.
      expect(await usdt(user.id)).toEqual({
        b: '1000.000000000000000000',
        p: '61.000000000000000000',
      })
      const cancelled = await withdraw(user.token, { amount: '40', idempotencyKey: key() })
      expect(cancelled.body.code).toBe(200)
      await cancel(cancelled.body.data.id, user.token)
      // A cancelled request gives its room back; the monthly limit is the tighter one next.
      expect((await withdraw(user.token, { amount: '40', idempotencyKey: key() })).body.code).toBe(
        200,
      )
      const month = await withdraw(user.token, { amount: '10', idempotencyKey: key() })
      expect(month.body).toMatchObject({ reason: 'withdraw_limit_reached' })
      expect(month.body.msg).toMatch(/: 0 USDT$/)
      // At once, two requests cannot both slip under the limit.
      const other = await funded('1000')
      const both = await Promise.all([
        withdraw(other.token, { amount: '60', idempotencyKey: key() }),
        withdraw(other.token, { amount: '60', idempotencyKey: key() }),
      ])
      expect(both.map((r) => r.body.code).sort()).toEqual([200, 400])
    } finally {
      await settings.set('withdrawDailyLimitUsdt', '50000', 'test')
      await settings.set('withdrawMonthlyLimitUsdt', '500000', 'test')
    }
  })

  test('a new address waits newAddressHoldHours before approval; the user may cancel it', async () => {
    const user = await funded('1000')
    const fresh = () => `0x${Buffer.from(key()).toString('hex').padEnd(40, '0').slice(0, 40)}`
    const there = fresh()
    const before = Date.now()
    const held = (
      await withdraw(user.token, { amount: '20', address: there, idempotencyKey: key() })
    ).body.data
    const until = new Date(held.holdUntil!).getTime()
    expect(until).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 60_000)
    expect(until).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000 + 60_000)
    // Not approvable yet: the answer says until when.
    const refused = await review(held.id, 'approve', { lang: 'en' })
    expect(refused.status).toBe(409)
    expect(refused.body.reason).toBe('withdrawal_on_hold')
    expect(refused.body.msg).toContain(held.holdUntil!)
    // Its owner may cancel it meanwhile; the reservation comes back.
    const canceled = await cancel(held.id, user.token)
    expect(canceled.body.data.status).toBe(6)
    expect((await usdt(user.id)).p).toBe('0.000000000000000000')
    // The own wallet never waits; an operator may reject a held one at once.
    const own = (await withdraw(user.token, { amount: '20', idempotencyKey: key() })).body.data
    expect(own.holdUntil).toBeNull()
    const second = (
      await withdraw(user.token, { amount: '20', address: there, idempotencyKey: key() })
    ).body.data
    expect((await review(second.id, 'reject')).body.data.status).toBe(3)
    // Once paid at an address (approved with no hold), that address no longer waits.
    const settings = t.app.services.settings
    await settings.set('newAddressHoldHours', 0, 'test')
    try {
      const known = fresh()
      const first = (
        await withdraw(user.token, { amount: '20', address: known, idempotencyKey: key() })
      ).body.data
      expect(first.holdUntil).toBeNull()
      expect((await review(first.id, 'approve')).body.data.status).toBe(1)
      await settings.set('newAddressHoldHours', 24, 'test')
      const again = (
        await withdraw(user.token, { amount: '20', address: known, idempotencyKey: key() })
      ).body.data
      expect(again.holdUntil).toBeNull()
      expect((await review(again.id, 'approve')).body.data.status).toBe(1)
      // Bulk approval skips the held ones and says so.
      const heldToo = (
        await withdraw(user.token, { amount: '20', address: fresh(), idempotencyKey: key() })
      ).body.data
      const bulk = await t.as<'admin/bulkReviewWithdraw', { done: number[]; skipped: number[] }>(
        finance,
        'admin/bulkReviewWithdraw',
        { ids: String(heldToo.id), decision: 'approve' },
      )
      expect(bulk.body.data).toEqual({ done: [], skipped: [heldToo.id] })
    } finally {
      await settings.set('newAddressHoldHours', 24, 'test')
    }
  })

  test('the ledger verifies clean', async () => {
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })
})
