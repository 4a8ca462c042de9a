import { createMemoryLimitStore, type LimitStore } from './limit-store.ts'

/**
 * Fixed-window counters in a limit store: in memory for one process, PostgreSQL or Redis when
 * several processes serve and must count as one.
 */
export class RateLimiter {
  private readonly windowMs: number
  private readonly now: () => number
  private readonly store: LimitStore

  constructor(
    windowMs: number,
    now: () => number = Date.now,
    store: LimitStore = createMemoryLimitStore(50_000),
  ) {
    this.windowMs = windowMs
    this.now = now
    this.store = store
  }

  /**
   * Counts one hit; resolves to the milliseconds to wait when `limit` is exceeded, else 0. A
   * store that fails lets the hit through: a limit never refuses a request for its own outage.
   */
  async hit(key: string, limit: number): Promise<number> {
    const now = this.now()
    const w = await this.store.hit(key, now, this.windowMs).catch(() => null)
    if (!w) return 0
    return w.count > limit ? Math.max(1, w.startMs + this.windowMs - now) : 0
  }
}
