/**
 * Failed sign-in attempts, counted per key, each key answering how long its next attempt must
 * wait. The wait grows with the failures (none for the first `freeFailures`, then a base
 * doubling per failure up to a cap) and never becomes a flat lock: it counts from the last
 * failure, and a key forgets its failures once its wait and `forgetMs` more have passed.
 * Kept in this process; bounded in size (the oldest keys go first).
 */
export class FailureDelays {
  private readonly entries = new Map<string, { failures: number; lastMs: number }>()
  private readonly opts: {
    freeFailures: number
    baseMs: number
    maxMs: number
    forgetMs: number
    maxKeys: number
  }
  private readonly now: () => number

  constructor(
    opts: {
      freeFailures: number
      baseMs: number
      maxMs: number
      forgetMs: number
      maxKeys?: number
    },
    now: () => number = Date.now,
  ) {
    this.opts = { maxKeys: 100_000, ...opts }
    this.now = now
  }

  /** The wait after `failures` failures, in ms. */
  delayAfter(failures: number): number {
    const over = failures - this.opts.freeFailures
    if (over < 0) return 0
    // 2^over without overflow: past the cap the exponent no longer matters.
    return Math.min(this.opts.maxMs, this.opts.baseMs * 2 ** Math.min(over, 40))
  }

  /** The failures counted for `key` (0 once forgotten). */
  failures(key: string): number {
    return this.live(key)?.failures ?? 0
  }

  /**
   * Milliseconds until `key` may try again, 0 when it may now. `atLeastFailures` lets a wider
   * count (e.g. all failures for one username) set the wait of a narrower key that has failed.
   */
  waitMs(key: string, atLeastFailures = 0): number {
    const e = this.live(key)
    if (!e) return 0
    const delay = this.delayAfter(Math.max(e.failures, atLeastFailures))
    return Math.max(0, e.lastMs + delay - this.now())
  }

  /** Counts a failure for `key`. */
  fail(key: string): void {
    const e = this.live(key)
    this.entries.delete(key)
    if (this.entries.size >= this.opts.maxKeys) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    this.entries.set(key, { failures: (e?.failures ?? 0) + 1, lastMs: this.now() })
  }

  /** Forgets `key`'s failures (a success). */
  clear(key: string): void {
    this.entries.delete(key)
  }

  private live(key: string) {
    const e = this.entries.get(key)
    if (!e) return undefined
    if (this.now() - e.lastMs > this.delayAfter(e.failures) + this.opts.forgetMs) {
      this.entries.delete(key)
      return undefined
    }
    return e
  }
}
