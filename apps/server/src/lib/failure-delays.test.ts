import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { FailureDelays } from './failure-delays.ts'

const options = { freeFailures: 3, baseMs: 1_000, maxMs: 900_000, forgetMs: 3_600_000 }

describe('failure delays', () => {
  test('free failures wait nothing, then the wait doubles up to its cap', () => {
    const d = new FailureDelays(options)
    expect([0, 1, 2, 3, 4, 5, 13, 60].map((f) => d.delayAfter(f))).toEqual([
      0, 0, 0, 1_000, 2_000, 4_000, 900_000, 900_000,
    ])
  })

  test('the wait counts from the last failure and a wider count can lengthen it', async () => {
    let now = 0
    const d = new FailureDelays(options, () => now)
    for (let i = 0; i < 4; i++) await d.fail('a')
    expect(await d.waitMs('a')).toBe(2_000)
    now = 1_500
    expect(await d.waitMs('a')).toBe(500)
    expect(await d.waitMs('a', 6)).toBe(8_000 - 1_500)
    expect(await d.waitMs('never-failed', 50)).toBe(0)
  })

  test('never a flat lock: any key may try again within the cap, and is forgotten later', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200 }),
        fc.nat(10_000_000),
        async (failures, elapsed) => {
          let now = 0
          const d = new FailureDelays(options, () => now)
          for (let i = 0; i < failures; i++) await d.fail('k')
          now = elapsed
          const wait = await d.waitMs('k', failures * 3)
          expect(wait).toBeLessThanOrEqual(options.maxMs)
          if (elapsed >= options.maxMs) expect(wait).toBe(0)
          if (elapsed > options.maxMs + options.forgetMs) expect(await d.failures('k')).toBe(0)
        },
      ),
    )
  })

  test('a success forgets the key; the store keeps at most its size', async () => {
    const d = new FailureDelays({ ...options, maxKeys: 3 })
    for (const k of ['a', 'b', 'c', 'd']) await d.fail(k)
    expect(await d.failures('a')).toBe(0)
    expect(await d.failures('d')).toBe(1)
    await d.clear('d')
    expect(await d.failures('d')).toBe(0)
  })
})
