import { Redis } from 'ioredis'
import type pg from 'pg'
import { inTransaction } from '../db/transaction.ts'
import { lockForTransaction } from '../db/advisory-lock.ts'
import { LOCK_KEYS } from '../db/lock-keys.ts'

/**
 * Where held slots are counted across processes: at most `cap` live slots per key (a user's
 * chat sockets). A slot lives until it is released or its time-to-live passes without a renewal,
 * so the slots of a process that crashed free themselves. Every call takes the caller's clock.
 */
export interface SlotStore {
  readonly kind: 'postgres' | 'redis'
  /**
   * Holds `slotId` under `key` for `ttlMs` when fewer than `cap` live slots are held there (a
   * slot already held is renewed); whether it is held.
   */
  hold(key: string, slotId: string, cap: number, nowMs: number, ttlMs: number): Promise<boolean>
  /** Renews slots this process holds (its heartbeat); a slot that expired meanwhile stays gone. */
  renew(
    slots: readonly { key: string; slotId: string }[],
    nowMs: number,
    ttlMs: number,
  ): Promise<void>
  release(key: string, slotId: string): Promise<void>
  close(): Promise<void>
}

/** Serialises the holds of one key: a count and an insert that two processes cannot interleave. */
// Its own key: it shared the reconciliation scan's first key before.
const SLOT_LOCK = LOCK_KEYS.chatSlots

/**
 * Slots in PostgreSQL's UNLOGGED `limit_slots` table (migration 0048): a crash may forget them,
 * as it forgets the connections they counted.
 */
export function createPostgresSlotStore(pool: pg.Pool): SlotStore {
  return {
    kind: 'postgres',
    hold: (key, slotId, cap, nowMs, ttlMs) =>
      inTransaction(pool, async (q) => {
        const { rows } = await q.query<{ h: number }>('SELECT hashtext($1) AS h', [key])
        await lockForTransaction(q, [SLOT_LOCK, rows[0]!.h])
        await q.query('DELETE FROM limit_slots WHERE key = $1 AND expires_ms <= $2', [key, nowMs])
        const held = await q.query(
          `INSERT INTO limit_slots (key, slot, expires_ms)
           SELECT $1, $2, $3::bigint + $4::bigint
            WHERE EXISTS (SELECT 1 FROM limit_slots WHERE key = $1 AND slot = $2)
               OR (SELECT count(*) FROM limit_slots WHERE key = $1) < $5
           ON CONFLICT (key, slot) DO UPDATE SET expires_ms = EXCLUDED.expires_ms`,
          [key, slotId, nowMs, ttlMs, cap],
        )
        return (held.rowCount ?? 0) > 0
      }),
    async renew(slots, nowMs, ttlMs) {
      if (slots.length === 0) return
      await pool.query(
        `UPDATE limit_slots s SET expires_ms = $3::bigint + $4::bigint
           FROM unnest($1::text[], $2::text[]) AS r(key, slot)
          WHERE s.key = r.key AND s.slot = r.slot AND s.expires_ms > $3`,
        [slots.map((s) => s.key), slots.map((s) => s.slotId), nowMs, ttlMs],
      )
    },
    async release(key, slotId) {
      await pool.query('DELETE FROM limit_slots WHERE key = $1 AND slot = $2', [key, slotId])
    },
    async close() {},
  }
}

// One round trip: expired slots go, then the slot is held if it is already or there is room.
// Scores are expiry times by the caller's clock; PEXPIRE only lets Redis drop a dead key.
const HOLD_SCRIPT = `
local now = tonumber(ARGV[2])
local ttl = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[4]) then
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ttl)
  return 1
end
return 0
`
const RENEW_SCRIPT = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) > tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 0
`

/** Slots in Redis sorted sets under `prefix`, shared by every process that reaches it. */
export function createRedisSlotStore(url: string, prefix: string): SlotStore & { redis: Redis } {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  })
  redis.on('error', () => {})
  redis.defineCommand('hopeHoldSlot', { numberOfKeys: 1, lua: HOLD_SCRIPT })
  redis.defineCommand('hopeRenewSlot', { numberOfKeys: 1, lua: RENEW_SCRIPT })
  const ready = new Promise<void>((resolve) => {
    redis.once('ready', resolve)
    setTimeout(resolve, 1_000).unref()
  })
  type Scripts = {
    hopeHoldSlot(key: string, ...args: string[]): Promise<number>
    hopeRenewSlot(key: string, ...args: string[]): Promise<number>
  }
  const scripts = redis as unknown as Scripts
  const ms = (v: number) => String(Math.max(1, Math.ceil(v)))
  return {
    kind: 'redis',
    redis,
    async hold(key, slotId, cap, nowMs, ttlMs) {
      await ready
      const held = await scripts.hopeHoldSlot(
        prefix + key,
        slotId,
        ms(nowMs),
        ms(ttlMs),
        String(cap),
      )
      return Number(held) === 1
    },
    async renew(slots, nowMs, ttlMs) {
      await ready
      await Promise.all(
        slots.map((s) => scripts.hopeRenewSlot(prefix + s.key, s.slotId, ms(nowMs), ms(ttlMs))),
      )
    },
    async release(key, slotId) {
      await ready
      await redis.zrem(prefix + key, slotId)
    },
    async close() {
      redis.disconnect()
    },
  }
}

/**
 * The slot store for this process: Redis when `redisUrl` is given (PostgreSQL for any call that
 * fails on it), PostgreSQL otherwise. In Redis the slots live under `<redisPrefix>slot:`.
 */
export function openSlotStore(opts: {
  redisUrl: string | undefined
  redisPrefix?: string
  pool: pg.Pool
  log: (msg: string, err?: unknown) => void
}): SlotStore {
  const postgres = createPostgresSlotStore(opts.pool)
  if (!opts.redisUrl) return postgres
  const redis = createRedisSlotStore(opts.redisUrl, `${opts.redisPrefix ?? 'hope:'}slot:`)
  let down = false
  async function run<T>(work: (s: SlotStore) => Promise<T>): Promise<T> {
    try {
      const result = await work(redis)
      if (down) {
        down = false
        opts.log('the redis slot store answers again')
      }
      return result
    } catch (err) {
      if (!down) {
        down = true
        opts.log('the redis slot store failed; counting in postgres', err)
      }
      return work(postgres)
    }
  }
  return {
    kind: 'redis',
    hold: (key, slotId, cap, nowMs, ttlMs) => run((s) => s.hold(key, slotId, cap, nowMs, ttlMs)),
    renew: (slots, nowMs, ttlMs) => run((s) => s.renew(slots, nowMs, ttlMs)),
    release: (key, slotId) => run((s) => s.release(key, slotId)),
    close: () => redis.close(),
  }
}
