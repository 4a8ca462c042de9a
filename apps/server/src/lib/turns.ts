/**
 * Work that takes turns in this process: at most `concurrent` runs at once, the rest wait in
 * order without holding anything. For transactions that all queue on one database lock (the
 * sale's): waiting here instead of on the lock keeps the pool's connections free for everyone
 * else's requests.
 * @example const sale = createTurns(1); await sale.run(() => inTransaction(pool, work))
 */
export function createTurns(concurrent: number) {
  let running = 0
  const waiting: (() => void)[] = []
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running >= concurrent) await new Promise<void>((r) => waiting.push(r))
      else running += 1
      try {
        return await work()
      } finally {
        const next = waiting.shift()
        // The turn passes straight to the next waiter; the count stays.
        if (next) next()
        else running -= 1
      }
    },
    /** Runs waiting for a turn, for tests and metrics. */
    waiting: () => waiting.length,
  }
}
