import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { HOPE_UNIT, PPM } from '../../lib/units.ts'
import { consensusRelease } from './staking.rules.ts'

const usdt = (n: number) => BigInt(Math.round(n * 1e6))
const hope = (n: number) => BigInt(n) * HOPE_UNIT

describe('consensus release', () => {
  const P = { dailyRate: 5_000n, capMultiple: 2_500_000n }

  test('worked example: 100 USDT releases 0.5 USDT a day as HOPE, out after 500 days', () => {
    const day = consensusRelease({ principal: usdt(100), released: 0n }, 100_000n, P)
    expect(day).toEqual({ value: usdt(0.5), hope: hope(5), out: false })
    const last = consensusRelease({ principal: usdt(100), released: usdt(249.7) }, 100_000n, P)
    expect(last).toEqual({ value: usdt(0.3), hope: 3n * HOPE_UNIT, out: true })
  })

  test('property: releases never pass the cap, and reach it exactly', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: usdt(1_000_000) }),
        fc.integer({ min: 1, max: 50 }),
        (principal, stride) => {
          const fast = { dailyRate: 5_000n * BigInt(stride), capMultiple: 2_500_000n }
          let released = 0n
          for (let day = 0; day < 100_000; day++) {
            const r = consensusRelease({ principal, released }, 100_000n, fast)
            released += r.value
            if (r.out) break
            expect(r.value).toBeGreaterThan(0n)
          }
          expect(released).toBe((principal * 2_500_000n) / PPM)
        },
      ),
      { numRuns: 50 },
    )
  })
})
