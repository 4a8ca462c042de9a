import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  applyLegs,
  checkModelInvariants,
  feeFor,
  type Leg,
  type LedgerModel,
} from './ledger.rules.ts'

const model = (): LedgerModel => ({
  accounts: new Map([
    [
      1,
      {
        id: 1,
        currency: 'USDT',
        isUser: false,
        balance: 0n,
        debitsPending: 0n,
        creditsPending: 0n,
      },
    ],
    [
      2,
      { id: 2, currency: 'USDT', isUser: true, balance: 0n, debitsPending: 0n, creditsPending: 0n },
    ],
    [
      3,
      { id: 3, currency: 'USDT', isUser: true, balance: 0n, debitsPending: 0n, creditsPending: 0n },
    ],
    [
      4,
      { id: 4, currency: 'HOPE', isUser: true, balance: 0n, debitsPending: 0n, creditsPending: 0n },
    ],
  ]),
  transfers: [],
  requests: new Map(),
})

const posted = (debit: number, credit: number, amount: bigint): Leg => ({
  kind: 'posted',
  debit,
  credit,
  amount,
  logType: 9,
})

describe('ledger rules', () => {
  test('a user account cannot go below zero; a platform account can', () => {
    const m = model()
    expect(applyLegs(m, 'a', 'h', [posted(2, 3, 1n)])).toMatchObject({
      ok: false,
      error: 'insufficient_funds',
    })
    const r = applyLegs(m, 'b', 'h', [posted(1, 2, 10n)])
    expect(r.ok && r.model.accounts.get(1)!.balance).toBe(-10n)
  })

  test('all or nothing: a failing second leg leaves no trace of the first', () => {
    const r1 = applyLegs(model(), 'a', 'h', [posted(1, 2, 10n)])
    if (!r1.ok) throw new Error('setup')
    const r2 = applyLegs(r1.model, 'b', 'h', [posted(2, 3, 5n), posted(2, 3, 6n)])
    expect(r2).toMatchObject({ ok: false, error: 'insufficient_funds' })
    expect(r1.model.accounts.get(2)!.balance).toBe(10n)
  })

  test('a key replays with the same content and conflicts with other content', () => {
    const r1 = applyLegs(model(), 'k', 'h1', [posted(1, 2, 10n)])
    if (!r1.ok) throw new Error('setup')
    const again = applyLegs(r1.model, 'k', 'h1', [posted(1, 2, 10n)])
    expect(again).toMatchObject({ ok: true, replayed: true, transferIds: r1.transferIds })
    expect(applyLegs(r1.model, 'k', 'h2', [posted(1, 2, 11n)])).toMatchObject({
      ok: false,
      error: 'idempotency_conflict',
    })
  })

  test('pending reserves, post moves at most the reserved amount, and a pending resolves once', () => {
    let m = model()
    const step = (key: string, legs: Leg[]) => {
      const r = applyLegs(m, key, key, legs)
      if (!r.ok) return r.error
      m = r.model
      return r.transferIds
    }
    step('fund', [posted(1, 2, 100n)])
    const [pendingId] = step('hold', [
      { kind: 'pending', debit: 2, credit: 1, amount: 60n, logType: 13 },
    ]) as number[]
    expect(step('spend', [posted(2, 3, 50n)])).toBe('insufficient_funds')
    expect(step('too-much', [{ kind: 'post_pending', pending: pendingId!, amount: 61n }])).toBe(
      'malformed',
    )
    step('post', [{ kind: 'post_pending', pending: pendingId!, amount: 40n }])
    expect(m.accounts.get(2)).toMatchObject({ balance: 60n, debitsPending: 0n })
    expect(step('void', [{ kind: 'void_pending', pending: pendingId! }])).toBe('pending_resolved')
    expect(checkModelInvariants(m)).toEqual([])
  })

  test('random sequences keep every invariant', () => {
    const legArb = fc.oneof(
      fc.record({
        kind: fc.constantFrom('posted' as const, 'pending' as const),
        debit: fc.constantFrom(1, 2, 3),
        credit: fc.constantFrom(1, 2, 3),
        amount: fc.bigInt({ min: 1n, max: 100n }),
        logType: fc.constant(9),
      }),
      fc.record({
        kind: fc.constant('post_pending' as const),
        pending: fc.integer({ min: 1, max: 20 }),
        amount: fc.bigInt({ min: 1n, max: 100n }),
      }),
      fc.record({
        kind: fc.constant('void_pending' as const),
        pending: fc.integer({ min: 1, max: 20 }),
      }),
    )
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
            fc.array(legArb, { minLength: 1, maxLength: 3 }),
          ),
          { maxLength: 30 },
        ),
        (requests) => {
          let m = model()
          for (const [key, legs] of requests) {
            const r = applyLegs(
              m,
              key,
              JSON.stringify(legs, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
              legs,
            )
            if (r.ok) m = r.model
            expect(checkModelInvariants(m)).toEqual([])
          }
        },
      ),
    )
  })
})

describe('fees', () => {
  test('fixed plus rate, rounded up to the smallest unit', () => {
    expect(feeFor(100_000_000n, { fixed: 1_000_000n, rate: '0' })).toBe(1_000_000n)
    expect(feeFor(100_000_000n, { fixed: 1_000_000n, rate: '0.01' })).toBe(2_000_000n)
    expect(feeFor(1n, { fixed: 0n, rate: '0.001' })).toBe(1n)
    expect(feeFor(0n, { fixed: 0n, rate: '0.5' })).toBe(0n)
  })
  test('never less than the exact fee', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (amount, ppm) => {
          const fee = feeFor(amount, { fixed: 0n, rate: (ppm / 1_000_000).toFixed(6) })
          return (
            fee * 1_000_000n >= amount * BigInt(ppm) &&
            (fee - 1n) * 1_000_000n < amount * BigInt(ppm)
          )
        },
      ),
    )
  })
})
