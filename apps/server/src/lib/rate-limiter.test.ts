import { describe, expect, test } from 'vitest'
import { RateLimiter } from './rate-limiter.ts'

describe('rate limiter', () => {
  test('allows the limit per window, then tells how long to wait', async () => {
    let now = 1_000
    const limiter = new RateLimiter(60_000, () => now)
    for (let i = 0; i < 3; i++) expect(await limiter.hit('a', 3)).toBe(0)
    expect(await limiter.hit('a', 3)).toBe(60_000)
    now += 15_000
    expect(await limiter.hit('a', 3)).toBe(45_000)
    expect(await limiter.hit('b', 3)).toBe(0)
    now += 45_000
    expect(await limiter.hit('a', 3)).toBe(0)
  })
})
