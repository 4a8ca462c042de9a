import { beforeAll, describe, expect, test } from 'vitest'
import { verifyLedger } from './modules/ledger/ledger.verify.ts'
import {
  call,
  databaseTargets,
  fundAccount,
  newOperator,
  registerUser,
  useTestApp,
  type TestUser,
} from './testing/index.ts'

/** The default per-currency bound (settings maxAmountUsdt / maxAmountHope). */
const BOUND = '1000000000000'
/** Past the bound, past the contract's ceiling of 10^15, and absurd. */
const TOO_LARGE = ['1000000000000.000001', '1000000000000000', '10000000000000000000']
const ABSURD = '9'.repeat(5_000)

let key = 0
const idempotencyKey = () => `bounds-${Date.now()}-${++key}`

describe.each(databaseTargets())('amount bounds on $name', (target) => {
  const t = useTestApp(target)
  let user: TestUser
  let downline: TestUser
  let operatorToken: string

  beforeAll(async () => {
    user = await registerUser(t.app)
    downline = await registerUser(t.app, user.userName)
    operatorToken = await newOperator(t.app, 'bounds-finance', 'finance', 'bounds-password-1')
  })

  /** Every route that takes an amount, as its caller sends it. */
  const moneyRoutes = () =>
    [
      ['userAccount/transfer', { address: downline.userName }, user.token],
      ['userAccount/withdraw', {}, user.token],
      ['userAccount/collect', { account: 'node' }, user.token],
      ['game/change', {}, user.token],
      ['game/sqChange', {}, user.token],
      [
        'admin/credit',
        { userName: user.userName, account: 'usdt', reason: 'bounds' },
        operatorToken,
      ],
      [
        'admin/debit',
        { userName: user.userName, account: 'split', reason: 'bounds' },
        operatorToken,
      ],
    ] as const

  test('from a user with nothing, the largest accepted amount and far larger ones are refused at once, heap flat', async () => {
    const heapBefore = process.memoryUsage().heapUsed
    for (const [path, extra, token] of moneyRoutes()) {
      for (const amount of [BOUND, ...TOO_LARGE, ABSURD]) {
        const started = performance.now()
        const res = await call(
          t.app,
          path,
          { ...extra, amount, idempotencyKey: idempotencyKey() },
          { token },
        )
        const tookMs = performance.now() - started
        const label = `${path} ${amount.slice(0, 24)}`
        // The operator's credit of the bound itself is allowed: it is a real credit.
        if (path === 'admin/credit' && amount === BOUND) {
          expect(res.status, label).toBe(200)
          continue
        }
        expect(res.status, label).toBeGreaterThanOrEqual(400)
        expect(res.status, label).toBeLessThan(500)
        const expected =
          amount === ABSURD
            ? ['amount_invalid', 'redeem_amount_invalid']
            : amount === BOUND
              ? ['insufficient_balance', 'amount_below_minimum', 'amount_too_small']
              : ['amount_too_large']
        expect(expected, `${label}: ${res.body.reason}`).toContain(res.body.reason)
        // Prompt: a bound, not a timing budget (the unbounded walk took over ten seconds).
        expect(tookMs, label).toBeLessThan(5_000)
      }
    }
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024)
    // The one real credit, taken back: the books are whole.
    const back = await t.as(operatorToken, 'admin/debit', {
      userName: user.userName,
      account: 'usdt',
      amount: BOUND,
      reason: 'bounds',
      idempotencyKey: idempotencyKey(),
    })
    expect(back.status).toBe(200)
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  /** The finance operator credits `amount` to `userName`'s `account`. */
  const credit = (userName: string, account: string, amount: string) =>
    t.as(operatorToken, 'admin/credit', {
      userName,
      account,
      amount,
      reason: 'x',
      idempotencyKey: idempotencyKey(),
    })

  test('an operator credit past the bound changes nothing, and every later credit still works', async () => {
    const huge = await credit(user.userName, 'usdt', '99999999999999999999')
    expect(huge.status).toBe(400)
    expect(huge.body.reason).toBe('amount_too_large')
    const past = await call(
      t.app,
      'admin/credit',
      {
        userName: user.userName,
        account: 'usdt',
        amount: '10000000000000',
        reason: 'x',
        idempotencyKey: idempotencyKey(),
      },
      { token: operatorToken, lang: 'en' },
    )
    expect(past.body.reason).toBe('amount_too_large')
    expect(past.body.msg).toBe(
      'The amount is above the largest allowed in one request: 1000000000000',
    )
    const hope = await credit(user.userName, 'community', '99999999999999999999')
    expect(hope.body.reason).toBe('amount_too_large')
    for (const who of [user, downline]) {
      const ok = await credit(who.userName, 'usdt', '5')
      expect(ok.status).toBe(200)
    }
  })

  test('a bound an operator lowers applies to users and operators alike', async () => {
    await t.app.services.settings.set('maxAmountUsdt', '1000', 'test')
    try {
      await fundAccount(t.db.pool, user.id, '5000')
      const res = await t.as(user, 'userAccount/transfer', {
        address: downline.userName,
        amount: '1000.5',
        idempotencyKey: idempotencyKey(),
      })
      expect(res.body.reason).toBe('amount_too_large')
      const within = await t.as(user, 'userAccount/transfer', {
        address: downline.userName,
        amount: '1000',
        idempotencyKey: idempotencyKey(),
      })
      expect(within.status).toBe(200)
    } finally {
      await t.app.services.settings.set('maxAmountUsdt', BOUND, 'test')
    }
  })

  test('a purchase spanning more sale stages than one request may is refused without walking them', async () => {
    await fundAccount(t.db.pool, user.id, BOUND)
    // At the default stages, the bound buys across some 14,000 stages.
    const wide = await t.as(user, 'game/change', {
      amount: BOUND,
      idempotencyKey: idempotencyKey(),
    })
    expect(wide.body.reason).toBe('amount_too_large')
    // An operator's tiny stage size: a hundred USDT would span a billion stages.
    await t.app.services.settings.set('hopeStageSizeHope', '0.000001', 'test')
    try {
      const started = performance.now()
      const tiny = await t.as(user, 'game/change', {
        amount: '100',
        idempotencyKey: idempotencyKey(),
      })
      expect(tiny.body.reason).toBe('amount_too_large')
      expect(performance.now() - started).toBeLessThan(5_000)
    } finally {
      await t.app.services.settings.set('hopeStageSizeHope', '1000000', 'test')
    }
    const fine = await t.as(user, 'game/change', {
      amount: '100',
      idempotencyKey: idempotencyKey(),
    })
    expect(fine.status).toBe(200)
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })
})
