import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { PPM } from '../../lib/units.ts'
import { communityRewards, rankOf, rankPerformance } from './team.rules.ts'

const usdt = (n: number) => BigInt(Math.round(n * 1e6))
const LEVEL_RATES = [0n, 10_000n, 20_000n, 30_000n, 40_000n, 50_000n, 60_000n, 70_000n]

describe('community rewards', () => {
  const P = { directRate: 100_000n, levelRates: LEVEL_RATES }

  test('worked example: inviter 10%, then the level differential up the tree', () => {
    const rewards = communityRewards(
      usdt(1000),
      [
        { id: 1, level: 1, isRobot: false }, // direct 100 + level 1% = 10
        { id: 2, level: 0, isRobot: false }, // no level: nothing
        { id: 3, level: 3, isRobot: false }, // 3% − 1% = 20
        { id: 4, level: 2, isRobot: false }, // below what was paid: nothing
        { id: 5, level: 7, isRobot: true }, // robot: nothing
        { id: 6, level: 7, isRobot: false }, // 7% − 3% = 40
      ],
      P,
    )
    expect(rewards).toEqual([
      { userId: 1, kind: 'direct', value: usdt(100) },
      { userId: 1, kind: 'level', value: usdt(10) },
      { userId: 3, kind: 'level', value: usdt(20) },
      { userId: 6, kind: 'level', value: usdt(40) },
    ])
  })

  test('property: never more than direct + the top level rate, robots get nothing', () => {
    const upline = fc.record({
      id: fc.integer({ min: 1, max: 1_000_000 }),
      level: fc.integer({ min: 0, max: 7 }),
      isRobot: fc.boolean(),
    })
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: usdt(10_000_000) }),
        fc.array(upline, { maxLength: 40 }),
        (value, uplines) => {
          const rewards = communityRewards(value, uplines, P)
          const total = rewards.reduce((s, r) => s + r.value, 0n)
          expect(total * PPM).toBeLessThanOrEqual(value * (100_000n + 70_000n))
          const robots = new Set(uplines.filter((u) => u.isRobot).map((u) => u.id))
          const humans = new Set(uplines.filter((u) => !u.isRobot).map((u) => u.id))
          for (const r of rewards) {
            expect(humans.has(r.userId) || !robots.has(r.userId)).toBe(true)
            expect(r.value).toBeGreaterThan(0n)
          }
        },
      ),
    )
  })
})

describe('ranks', () => {
  const T = [usdt(10_000), usdt(50_000), usdt(200_000), usdt(1_000_000), usdt(5_000_000)]

  test('worked example: the strongest partition is left out', () => {
    expect(rankPerformance([usdt(8_000), usdt(900_000), usdt(3_000)])).toBe(usdt(11_000))
    expect(rankPerformance([usdt(5)])).toBe(0n)
    expect(rankOf([usdt(900_000), usdt(8_000), usdt(3_000)], T)).toBe(1)
    expect(rankOf([usdt(900_000), usdt(8_000), 0n], T)).toBe(0)
    expect(rankOf([usdt(3_000_000), usdt(3_000_000), usdt(2_000_000)], T)).toBe(5)
  })

  test('property: the rank does not depend on the order of the partitions', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: usdt(1e7) }), { minLength: 3, maxLength: 3 }),
        (p) => {
          const r = rankOf(p, T)
          expect(rankOf([...p].reverse(), T)).toBe(r)
          expect(rankOf([p[1]!, p[2]!, p[0]!], T)).toBe(r)
        },
      ),
    )
  })
})
