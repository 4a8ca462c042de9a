import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  HOPE_UNIT,
  PPM,
  USDT_UNIT,
  buyAcrossStages,
  communityRewards,
  consensusRelease,
  lastSettleableDay,
  linearRelease,
  nodeShares,
  priceAt,
  rankOf,
  rankPerformance,
  settlementDayDue,
  redemption,
  upgradeCost,
  usdtFor,
  type StageParams,
} from './game.rules.ts'

const STAGES: StageParams = {
  firstPrice: 100_000n, // 0.10 USDT
  step: 10_000n, // +0.01
  size: 1_000_000n * HOPE_UNIT,
}
const usdt = (n: number) => BigInt(Math.round(n * 1e6))
const hope = (n: number) => BigInt(n) * HOPE_UNIT
const LEVEL_RATES = [0n, 10_000n, 20_000n, 30_000n, 40_000n, 50_000n, 60_000n, 70_000n]

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

describe('ranks, nodes and upgrades', () => {
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

  test('an upgrade pays only the difference', () => {
    const prices = [0n, usdt(100), usdt(300), usdt(500)]
    expect(upgradeCost(prices, 1, 3)).toBe(usdt(400))
    expect(() => upgradeCost(prices, 2, 2)).toThrow(RangeError)
    expect(() => upgradeCost(prices, 1, 9)).toThrow(RangeError)
    expect(USDT_UNIT).toBe(1_000_000n)
  })
})

describe('settlement schedule', () => {
  test('worked examples: at 00:05 in UTC+8 the day before becomes due', () => {
    // 2026-11-23 00:10 in UTC+8
    expect(settlementDayDue(Date.parse('2026-11-22T16:10:00Z'), 480, '00:05')).toBe('2026-11-22')
    // 2026-11-23 00:03 in UTC+8: still the day before yesterday
    expect(settlementDayDue(Date.parse('2026-11-22T16:03:00Z'), 480, '00:05')).toBe('2026-11-21')
    expect(settlementDayDue(Date.parse('2026-11-22T23:59:00Z'), 0, '00:00')).toBe('2026-11-21')
  })

  test('property: the due day moves by one each 24 hours and never runs ahead of now', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1.6e12, max: 2.2e12 }),
        fc.integer({ min: -720, max: 840 }),
        (now, offset) => {
          const d = settlementDayDue(now, offset, '00:05')
          expect(settlementDayDue(now + 86_400_000, offset, '00:05')).toBe(
            new Date(Date.parse(d) + 86_400_000).toISOString().slice(0, 10),
          )
          expect(Date.parse(d) + 86_400_000).toBeLessThanOrEqual(now + offset * 60_000)
        },
      ),
    )
  })
})

describe('lastSettleableDay', () => {
  test('is tomorrow in the settlement time zone', () => {
    // 15:59 UTC is 23:59 in UTC+8: tomorrow there is the 23rd; a minute later it is the 24th.
    expect(lastSettleableDay(Date.parse('2026-11-22T15:59:00Z'), 480)).toBe('2026-11-23')
    expect(lastSettleableDay(Date.parse('2026-11-22T16:00:00Z'), 480)).toBe('2026-11-24')
    expect(lastSettleableDay(Date.parse('2026-11-22T03:00:00Z'), -300)).toBe('2026-11-22')
  })

  test('is always one day after the local day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: -720, max: 840 }),
        (now, offset) => {
          const local = new Date(now + offset * 60_000).toISOString().slice(0, 10)
          const next = Date.parse(`${lastSettleableDay(now, offset)}T00:00:00Z`)
          expect(next - Date.parse(`${local}T00:00:00Z`)).toBe(86_400_000)
        },
      ),
    )
  })
})
