import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { HOPE_UNIT } from '../../lib/units.ts'
import { buyAcrossStages, priceAt, usdtFor, type StageParams } from './sale.rules.ts'

const STAGES: StageParams = {
  firstPrice: 100_000n, // 0.10 USDT
  step: 10_000n, // +0.01
  size: 1_000_000n * HOPE_UNIT,
}
const usdt = (n: number) => BigInt(Math.round(n * 1e6))
const hope = (n: number) => BigInt(n) * HOPE_UNIT

describe('stage pricing', () => {
  test('worked example: 100 USDT in stage 1 buys 1,000 HOPE at 0.10', () => {
    expect(buyAcrossStages(0n, usdt(100), STAGES)).toEqual({
      hope: hope(1000),
      fills: [{ stage: 1n, price: 100_000n, hope: hope(1000), usdt: usdt(100) }],
    })
    expect(priceAt(hope(999_999), STAGES)).toBe(100_000n)
    expect(priceAt(hope(1_000_000), STAGES)).toBe(110_000n)
  })

  test('worked example: a purchase across the stage 1/2 boundary is split', () => {
    // 500 HOPE left in stage 1 cost 50 USDT; the other 61 USDT buy 61 / 0.11 HOPE in stage 2
    const r = buyAcrossStages(hope(999_500), usdt(111), STAGES)
    expect(r.fills).toEqual([
      { stage: 1n, price: 100_000n, hope: hope(500), usdt: usdt(50) },
      { stage: 2n, price: 110_000n, hope: (usdt(61) * HOPE_UNIT) / 110_000n, usdt: usdt(61) },
    ])
    expect(r.hope).toBe(hope(500) + 554_545_454_545_454_545_454n)
  })

  test('property: every USDT is spent, no fill is cheaper than its stage, stages follow on', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: hope(50_000_000) }),
        fc.bigInt({ min: 1n, max: usdt(10_000_000) }),
        (sold, pay) => {
          const r = buyAcrossStages(sold, pay, STAGES)
          expect(r.fills.reduce((s, f) => s + f.usdt, 0n)).toBe(pay)
          expect(r.fills.reduce((s, f) => s + f.hope, 0n)).toBe(r.hope)
          let at = sold
          for (const f of r.fills) {
            expect(f.price).toBe(priceAt(at, STAGES))
            // value of the HOPE at its stage price never exceeds what was paid for it
            expect(usdtFor(f.hope, f.price)).toBeLessThanOrEqual(f.usdt)
            at += f.hope
          }
        },
      ),
    )
  })
})
