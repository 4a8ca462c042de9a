import type { JobDefinition } from '../../jobs/job.ts'
import { createDepositWatcher } from './deposit.watcher.ts'

const INTERVAL_MS = 2_000

/**
 * The deposit watcher's scan, every two seconds in each process; a run within three quarters of
 * that after another process's is skipped, so several workers scan as often as one.
 */
export function createDepositJob(deps: Parameters<typeof createDepositWatcher>[0]): JobDefinition {
  const watcher = createDepositWatcher({ minRunGapMs: (INTERVAL_MS * 3) / 4, ...deps })
  return { name: 'deposit watcher', intervalMs: INTERVAL_MS, tick: () => watcher.tick() }
}
