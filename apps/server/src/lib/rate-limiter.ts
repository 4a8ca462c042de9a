/**
 * Fixed-window counters kept in this process. Several API processes behind a load balancer
 * each count on their own; a shared store (Redis) is the step up when that matters.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>()
  private readonly windowMs: number
  private readonly now: () => number

  constructor(windowMs: number, now: () => number = Date.now) {
    this.windowMs = windowMs
    this.now = now
  }

  /** Counts one hit; returns the milliseconds to wait when `limit` is exceeded, else 0. */
  hit(key: string, limit: number): number {
    const now = this.now()
    let w = this.windows.get(key)
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 50_000) this.sweep(now)
      w = { start: now, count: 0 }
      this.windows.set(key, w)
    }
    w.count += 1
    return w.count > limit ? w.start + this.windowMs - now : 0
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows)
      if (now - w.start >= this.windowMs) this.windows.delete(key)
  }
}
