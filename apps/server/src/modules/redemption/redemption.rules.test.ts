import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { HOPE_UNIT, PPM } from '../../lib/units.ts'
import { usdtFor } from '../sale/sale.rules.ts'
import { linearRelease, redemption } from './redemption.rules.ts'

const usdt = (n: number) => BigInt(Math.round(n * 1e6))
const hope = (n: number) => BigInt(n) * HOPE_UNIT

describe('redemption and pledge items', () => {
  const P = { redeemShare: 800_000n, feeRate: 50_000n }

  test('worked example: 100 HOPE at 0.10 → 80 redeemed = 8 USDT, fee 0.4, net 7.6; 20 pledged', () => {
    expect(redemption(hope(100), 100_000n, P)).toEqual({
      redeemed: hope(80),
      pledged: hope(20),
      gross: usdt(8),
      fee: usdt(0.4),
      net: usdt(7.6),
    })
  })

  test('property: parts add up exactly and the fee never exceeds its rate', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: hope(100_000_000) }),
        fc.bigInt({ min: 1_000n, max: 10_000_000n }),
        (amount, price) => {
          const r = redemption(amount, price, P)
          expect(r.redeemed + r.pledged).toBe(amount)
          expect(r.net + r.fee).toBe(r.gross)
          expect(r.gross).toBeLessThanOrEqual(usdtFor(amount, price))
          expect(r.fee * PPM).toBeLessThan(r.gross * 50_000n + PPM)
        },
      ),
    )
  })

  test('property: a linear release pays out exactly the total, 1% a day', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: hope(1_000_000) }), (total) => {
        let released = 0n
        let days = 0
        for (;;) {
          const r = linearRelease(total, released, 10_000n)
          released += r.amount
          days++
          if (r.done) break
        }
        expect(released).toBe(total)
        expect(days).toBeLessThanOrEqual(101)
      }),
    )
    expect(linearRelease(hope(20), 0n, 10_000n)).toEqual({ amount: hope(20) / 100n, done: false })
  })
})
