import { createMemoryLimitStore, type LimitStore } from './limit-store.ts'

/**
 * Failed sign-in attempts, counted per key, each key answering how long its next attempt must
 * wait. The wait grows with the failures (none for the first `freeFailures`, then a base
 * doubling per failure up to a cap) and never becomes a flat lock: it counts from the last
 * failure, and a key forgets its failures once its wait and `forgetMs` more have passed.
 * Kept in a limit store (memory by default, bounded in size: the oldest keys go first); a store
 * that fails counts nothing rather than refuse anyone.
 */
export class FailureDelays {
  private readonly opts: {
    freeFailures: number
    baseMs: number
    maxMs: number
    forgetMs: number
  }
  private readonly now: () => number
  private readonly store: LimitStore

  constructor(
    opts: {
      freeFailures: number
      baseMs: number
      maxMs: number
      forgetMs: number
      maxKeys?: number
    },
    now: () => number = Date.now,
    store: LimitStore = createMemoryLimitStore(opts.maxKeys ?? 100_000),
  ) {
    this.opts = opts
    this.now = now
    this.store = store
  }

  /** The wait after `failures` failures, in ms. */
  delayAfter(failures: number): number {
    const over = failures - this.opts.freeFailures
    if (over < 0) return 0
    // 2^over without overflow: past the cap the exponent no longer matters.
    return Math.min(this.opts.maxMs, this.opts.baseMs * 2 ** Math.min(over, 40))
  }

  /** The failures counted for `key` (0 once forgotten). */
  async failures(key: string): Promise<number> {
    return (await this.live(key))?.failures ?? 0
  }

  /**
   * Milliseconds until `key` may try again, 0 when it may now. `atLeastFailures` lets a wider
   * count (e.g. all failures for one username) set the wait of a narrower key that has failed.
   */
  async waitMs(key: string, atLeastFailures = 0): Promise<number> {
    const e = await this.live(key)
    if (!e) return 0
    const delay = this.delayAfter(Math.max(e.failures, atLeastFailures))
    return Math.max(0, e.lastMs + delay - this.now())
  }

  /** Counts a failure for `key`. */
  async fail(key: string): Promise<void> {
    // A key past its own (shorter) forgetting time starts from one, as a new key would.
    await this.live(key)
    await this.store
      .fail(key, this.now(), this.opts.maxMs + this.opts.forgetMs)
      .catch(() => undefined)
  }

  /** Forgets `key`'s failures (a success). */
  async clear(key: string): Promise<void> {
    await this.store.clear(key).catch(() => undefined)
  }

  private async live(key: string): Promise<{ failures: number; lastMs: number } | undefined> {
    const now = this.now()
    const e = await this.store.peek(key, now).catch(() => null)
    if (!e) return undefined
    if (now - e.lastMs > this.delayAfter(e.count) + this.opts.forgetMs) {
      await this.clear(key)
      return undefined
    }
    return { failures: e.count, lastMs: e.lastMs }
  }
}
