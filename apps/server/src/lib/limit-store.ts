import { Redis } from 'ioredis'
import type pg from 'pg'

/** One counter as a store keeps it: its count, when its window began and its last count. */
export interface LimitCount {
  count: number
  startMs: number
  lastMs: number
}

/**
 * Where the limits keep their counters. Every call takes the caller's clock (`nowMs`), so a
 * test's injected clock works with every store. Several processes sharing one store count as
 * one; an in-memory store counts for its own process only.
 */
export interface LimitStore {
  readonly kind: 'memory' | 'postgres' | 'redis'
  /**
   * Counts one hit in a fixed window of `windowMs` that begins at the key's first hit and
   * starts anew once it has passed.
   */
  hit(key: string, nowMs: number, windowMs: number): Promise<LimitCount>
  /**
   * Counts one more failure; the count is kept while failures come less than `ttlMs` apart
   * and starts anew after.
   */
  fail(key: string, nowMs: number, ttlMs: number): Promise<LimitCount>
  /** The key's live counter, null when there is none (or it has expired). */
  peek(key: string, nowMs: number): Promise<LimitCount | null>
  clear(key: string): Promise<void>
  /** Resolves when the store itself answers (readiness); a fallback does not count. */
  ping(): Promise<void>
  close(): Promise<void>
}

interface Entry extends LimitCount {
  expiresMs: number
}

/** Counters in this process, bounded in size (the oldest keys go first). */
export function createMemoryLimitStore(maxKeys = 100_000): LimitStore {
  const entries = new Map<string, Entry>()
  function count(key: string, nowMs: number, ttlMs: number, sliding: boolean): LimitCount {
    const e = entries.get(key)
    entries.delete(key)
    if (entries.size >= maxKeys) {
      const oldest = entries.keys().next().value
      if (oldest !== undefined) entries.delete(oldest)
    }
    const next: Entry =
      e && nowMs < e.expiresMs
        ? {
            count: e.count + 1,
            startMs: e.startMs,
            lastMs: nowMs,
            expiresMs: sliding ? nowMs + ttlMs : e.expiresMs,
          }
        : { count: 1, startMs: nowMs, lastMs: nowMs, expiresMs: nowMs + ttlMs }
    entries.set(key, next)
    return { count: next.count, startMs: next.startMs, lastMs: next.lastMs }
  }
  return {
    kind: 'memory',
    ping: async () => {},
    hit: async (key, nowMs, windowMs) => count(key, nowMs, windowMs, false),
    fail: async (key, nowMs, ttlMs) => count(key, nowMs, ttlMs, true),
    async peek(key, nowMs) {
      const e = entries.get(key)
      if (!e) return null
      if (nowMs >= e.expiresMs) {
        entries.delete(key)
        return null
      }
      return { count: e.count, startMs: e.startMs, lastMs: e.lastMs }
    },
    async clear(key) {
      entries.delete(key)
    },
    async close() {
      entries.clear()
    },
  }
}

/**
 * Counters in PostgreSQL's UNLOGGED `limit_counters` table (migration 0030): one upsert per
 * attempt, shared by every process on the database. Unlogged: a crash may forget counts, and
 * limits do not need to survive one, while writes skip the WAL.
 */
export function createPostgresLimitStore(pool: pg.Pool): LimitStore {
  let sinceSweep = 0
  async function count(key: string, nowMs: number, ttlMs: number, sliding: boolean) {
    // Expired rows of other keys are deleted now and then, not on every attempt.
    if (++sinceSweep >= 1_000) {
      sinceSweep = 0
      void pool.query('DELETE FROM limit_counters WHERE expires_ms <= $1', [nowMs]).catch(() => {})
    }
    const { rows } = await pool.query<{ count: number; start_ms: string; last_ms: string }>(
      `INSERT INTO limit_counters AS c (key, count, start_ms, last_ms, expires_ms)
       VALUES ($1, 1, $2::bigint, $2::bigint, $2::bigint + $3::bigint)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN EXCLUDED.last_ms >= c.expires_ms THEN 1 ELSE c.count + 1 END,
         start_ms = CASE WHEN EXCLUDED.last_ms >= c.expires_ms
                         THEN EXCLUDED.start_ms ELSE c.start_ms END,
         expires_ms = CASE WHEN EXCLUDED.last_ms >= c.expires_ms OR $4::boolean
                           THEN EXCLUDED.expires_ms ELSE c.expires_ms END,
         last_ms = EXCLUDED.last_ms
       RETURNING count, start_ms, last_ms`,
      [key, nowMs, ttlMs, sliding],
    )
    const r = rows[0]!
    return { count: r.count, startMs: Number(r.start_ms), lastMs: Number(r.last_ms) }
  }
  return {
    kind: 'postgres',
    hit: (key, nowMs, windowMs) => count(key, nowMs, windowMs, false),
    fail: (key, nowMs, ttlMs) => count(key, nowMs, ttlMs, true),
    async peek(key, nowMs) {
      const { rows } = await pool.query<{ count: number; start_ms: string; last_ms: string }>(
        'SELECT count, start_ms, last_ms FROM limit_counters WHERE key = $1 AND expires_ms > $2',
        [key, nowMs],
      )
      const r = rows[0]
      return r ? { count: r.count, startMs: Number(r.start_ms), lastMs: Number(r.last_ms) } : null
    },
    async clear(key) {
      await pool.query('DELETE FROM limit_counters WHERE key = $1', [key])
    },
    async ping() {
      await pool.query('SELECT 1 FROM limit_counters LIMIT 1')
    },
    async close() {},
  }
}

// One round trip per attempt: the check, the count and the expiry happen inside Redis. The
// window is judged by the caller's clock (ARGV[1]); PEXPIRE only lets Redis drop dead keys.
const COUNT_SCRIPT = `
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local sliding = ARGV[3] == '1'
local f = redis.call('HMGET', KEYS[1], 'c', 's', 'e')
local expires = tonumber(f[3])
if not expires or now >= expires then
  redis.call('HSET', KEYS[1], 'c', 1, 's', ARGV[1], 'l', ARGV[1], 'e', now + ttl)
  redis.call('PEXPIRE', KEYS[1], ttl)
  return {1, ARGV[1], ARGV[1]}
end
local c = redis.call('HINCRBY', KEYS[1], 'c', 1)
redis.call('HSET', KEYS[1], 'l', ARGV[1])
if sliding then
  redis.call('HSET', KEYS[1], 'e', now + ttl)
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return {c, f[2], ARGV[1]}
`

/**
 * Counters in Redis, shared by every process that reaches it. Commands fail at once while
 * Redis is unreachable (no offline queue), so a caller can fall back instead of waiting.
 */
export function createRedisLimitStore(
  url: string,
  prefix = 'hope:limit:',
): LimitStore & { redis: Redis } {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  })
  // Reconnection is ioredis's own business; a failure shows in the commands that fail.
  redis.on('error', () => {})
  redis.defineCommand('hopeCount', { numberOfKeys: 1, lua: COUNT_SCRIPT })
  // Right after start the first connection is still being made: wait for it briefly rather
  // than count the first attempts elsewhere; an outage later falls back at once.
  const ready = new Promise<void>((resolve) => {
    redis.once('ready', resolve)
    setTimeout(resolve, 1_000).unref()
  })
  type Counting = { hopeCount(key: string, ...args: string[]): Promise<[number, string, string]> }
  async function count(key: string, nowMs: number, ttlMs: number, sliding: boolean) {
    await ready
    const [c, s, l] = await (redis as unknown as Counting).hopeCount(
      prefix + key,
      String(Math.floor(nowMs)),
      String(Math.max(1, Math.ceil(ttlMs))),
      sliding ? '1' : '0',
    )
    return { count: Number(c), startMs: Number(s), lastMs: Number(l) }
  }
  return {
    kind: 'redis',
    redis,
    hit: (key, nowMs, windowMs) => count(key, nowMs, windowMs, false),
    fail: (key, nowMs, ttlMs) => count(key, nowMs, ttlMs, true),
    async peek(key, nowMs) {
      await ready
      const [c, s, l, e] = await redis.hmget(prefix + key, 'c', 's', 'l', 'e')
      if (c == null || e == null || nowMs >= Number(e)) return null
      return { count: Number(c), startMs: Number(s), lastMs: Number(l) }
    },
    async clear(key) {
      await redis.del(prefix + key)
    },
    async ping() {
      await redis.ping()
    },
    async close() {
      redis.disconnect()
    },
  }
}

/**
 * `primary`, and `fallback` for any call that fails on it (logged once per outage, and again
 * when the primary answers anew).
 */
export function withFallback(
  primary: LimitStore,
  fallback: LimitStore,
  log: (msg: string, err?: unknown) => void,
): LimitStore {
  let down = false
  async function run<T>(work: (s: LimitStore) => Promise<T>): Promise<T> {
    try {
      const result = await work(primary)
      if (down) {
        down = false
        log(`the ${primary.kind} limit store answers again`)
      }
      return result
    } catch (err) {
      if (!down) {
        down = true
        log(`the ${primary.kind} limit store failed; counting in ${fallback.kind}`, err)
      }
      return work(fallback)
    }
  }
  return {
    kind: primary.kind,
    hit: (key, nowMs, windowMs) => run((s) => s.hit(key, nowMs, windowMs)),
    fail: (key, nowMs, ttlMs) => run((s) => s.fail(key, nowMs, ttlMs)),
    peek: (key, nowMs) => run((s) => s.peek(key, nowMs)),
    clear: (key) => run((s) => s.clear(key)),
    ping: () => primary.ping(),
    async close() {
      await primary.close()
      await fallback.close()
    },
  }
}

/**
 * The store for this process: Redis (falling back to PostgreSQL) when `redisUrl` is given,
 * PostgreSQL when other processes may serve the same users, memory otherwise. In Redis the
 * counters live under `<redisPrefix>limit:`.
 */
export function openLimitStore(opts: {
  redisUrl: string | undefined
  redisPrefix?: string
  shared: boolean
  pool: pg.Pool
  log: (msg: string, err?: unknown) => void
}): LimitStore {
  if (opts.redisUrl)
    return withFallback(
      createRedisLimitStore(opts.redisUrl, `${opts.redisPrefix ?? 'hope:'}limit:`),
      createPostgresLimitStore(opts.pool),
      opts.log,
    )
  return opts.shared ? createPostgresLimitStore(opts.pool) : createMemoryLimitStore()
}
