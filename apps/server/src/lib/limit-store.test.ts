import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestDatabase, databaseTargets, type TestDatabase } from '../testing/index.ts'
import { FailureDelays } from './failure-delays.ts'
import {
  createMemoryLimitStore,
  createPostgresLimitStore,
  createRedisLimitStore,
  withFallback,
  type LimitStore,
} from './limit-store.ts'
import { RateLimiter } from './rate-limiter.ts'

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Whether Redis answers at REDIS_URL; the Redis cases are skipped, saying so, when not. */
async function redisAnswers(): Promise<boolean> {
  const probe = createRedisLimitStore(REDIS_URL, `hope:probe:${randomBytes(4).toString('hex')}:`)
  try {
    for (let i = 0; i < 20; i++) {
      if (
        await probe.redis.ping().then(
          () => true,
          () => false,
        )
      )
        return true
      await new Promise((r) => setTimeout(r, 100))
    }
    return false
  } finally {
    await probe.close()
  }
}
const redisUp = await redisAnswers()
if (!redisUp) console.warn(`Redis does not answer at ${REDIS_URL}: the Redis store is not tested`)

type Kind = 'memory' | 'postgres' | 'redis'
const kinds: Kind[] = ['memory', 'postgres', ...(redisUp ? (['redis'] as const) : [])]

describe.each(kinds)('the %s limit store', (kind) => {
  let db: TestDatabase | undefined
  let store: LimitStore
  beforeAll(async () => {
    if (kind === 'postgres') db = await createTestDatabase(databaseTargets().at(-1)!)
    store =
      kind === 'memory'
        ? createMemoryLimitStore()
        : kind === 'postgres'
          ? createPostgresLimitStore(db!.pool)
          : createRedisLimitStore(REDIS_URL, `hope:test:${randomBytes(6).toString('hex')}:`)
  })
  afterAll(async () => {
    await store?.close()
    await db?.drop()
  })

  test('a fixed window counts from its first hit and starts anew after it', async () => {
    let now = 1_763_779_200_000
    const limiter = new RateLimiter(60_000, () => now, store)
    for (let i = 0; i < 3; i++) expect(await limiter.hit('a', 3)).toBe(0)
    expect(await limiter.hit('a', 3)).toBe(60_000)
    now += 15_000
    expect(await limiter.hit('a', 3)).toBe(45_000)
    expect(await limiter.hit('b', 3)).toBe(0)
    now += 45_000
    expect(await limiter.hit('a', 3)).toBe(0)
  })

  test('growing waits count from the last failure, and a success forgets them', async () => {
    let now = 1_763_779_200_000
    const d = new FailureDelays(
      { freeFailures: 3, baseMs: 1_000, maxMs: 900_000, forgetMs: 3_600_000 },
      () => now,
      store,
    )
    for (let i = 0; i < 4; i++) await d.fail('f')
    expect(await d.waitMs('f')).toBe(2_000)
    now += 1_500
    expect(await d.waitMs('f')).toBe(500)
    expect(await d.waitMs('f', 6)).toBe(8_000 - 1_500)
    now += 2_000 + 3_600_001
    expect(await d.failures('f')).toBe(0)
    await d.fail('f')
    expect(await d.failures('f')).toBe(1)
    await d.clear('f')
    expect(await d.failures('f')).toBe(0)
  })

  test('concurrent hits are each counted once', async () => {
    const now = 1_763_779_200_000
    const counts = await Promise.all(
      Array.from({ length: 40 }, () => store.hit('many', now, 60_000)),
    )
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    )
  })
})

describe('a failing store', () => {
  const broken: LimitStore = {
    kind: 'redis',
    hit: () => Promise.reject(new Error('down')),
    fail: () => Promise.reject(new Error('down')),
    peek: () => Promise.reject(new Error('down')),
    clear: () => Promise.reject(new Error('down')),
    ping: () => Promise.reject(new Error('down')),
    close: async () => {},
  }

  test('falls back to the other store and says so once', async () => {
    const logged: string[] = []
    const store = withFallback(broken, createMemoryLimitStore(), (m) => logged.push(m))
    const limiter = new RateLimiter(60_000, () => 0, store)
    expect(await limiter.hit('k', 1)).toBe(0)
    expect(await limiter.hit('k', 1)).toBe(60_000)
    expect(logged).toEqual(['the redis limit store failed; counting in memory'])
  })

  test('never refuses anyone when no store answers', async () => {
    const limiter = new RateLimiter(60_000, () => 0, broken)
    for (let i = 0; i < 5; i++) expect(await limiter.hit('k', 1)).toBe(0)
    const d = new FailureDelays(
      { freeFailures: 0, baseMs: 1_000, maxMs: 10_000, forgetMs: 1 },
      () => 0,
      broken,
    )
    await d.fail('k')
    expect(await d.waitMs('k')).toBe(0)
  })
})
