import type { FastifyBaseLogger } from 'fastify'
import type { DepositWatcher } from '../modules/deposit/deposit.watcher.ts'

/** Runs the deposit watcher every `intervalMs`; one tick at a time, errors logged and retried. */
export function startDepositWatcherJob(
  watcher: DepositWatcher,
  log: FastifyBaseLogger,
  intervalMs = 2_000,
) {
  let running = false
  let stopped = false
  const timer = setInterval(async () => {
    if (running || stopped) return
    running = true
    try {
      const report = await watcher.tick()
      if (report.seen || report.credited || report.reorged)
        log.info({ deposits: report }, 'deposit watcher')
    } catch (err) {
      log.warn({ err }, 'deposit watcher tick failed; retrying')
    } finally {
      running = false
    }
  }, intervalMs)
  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      while (running) await new Promise((r) => setTimeout(r, 50))
    },
  }
}
