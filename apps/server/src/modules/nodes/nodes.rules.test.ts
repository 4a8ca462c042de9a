import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { PPM } from '../../lib/units.ts'
import { nodeShares } from './nodes.rules.ts'

const usdt = (n: number) => BigInt(Math.round(n * 1e6))

describe('nodes', () => {
  test('worked example: 1/2/3% of the day shared equally per node type', () => {
    const holders = [
      { userId: 1, type: 1 as const },
      { userId: 2, type: 1 as const },
      { userId: 3, type: 3 as const },
    ]
    expect(nodeShares(usdt(1000), holders, [10_000n, 20_000n, 30_000n])).toEqual([
      { userId: 1, type: 1, value: usdt(5) },
      { userId: 2, type: 1, value: usdt(5) },
      { userId: 3, type: 3, value: usdt(30) },
    ])
  })

  test('property: node shares never exceed their rates and do not depend on holder order', () => {
    const holder = fc.record({
      userId: fc.integer({ min: 1, max: 1e6 }),
      type: fc.constantFrom(1 as const, 2 as const, 3 as const),
    })
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: usdt(1e9) }), fc.array(holder), (allocated, hs) => {
        const rates = [10_000n, 20_000n, 30_000n] as const
        const shares = nodeShares(allocated, hs, rates)
        const total = shares.reduce((s, x) => s + x.value, 0n)
        expect(total * PPM).toBeLessThanOrEqual(allocated * 60_000n)
        const byUser = (xs: typeof shares) =>
          xs.map((x) => `${x.userId}:${x.type}:${x.value}`).sort()
        expect(byUser(nodeShares(allocated, [...hs].reverse(), rates))).toEqual(byUser(shares))
      }),
    )
  })
})
