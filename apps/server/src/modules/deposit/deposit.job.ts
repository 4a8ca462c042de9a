import type { JobDefinition } from '../../jobs/job.ts'
import { createDepositWatcher } from './deposit.watcher.ts'

/** The deposit watcher's scan, every two seconds. */
export function createDepositJob(deps: Parameters<typeof createDepositWatcher>[0]): JobDefinition {
  const watcher = createDepositWatcher(deps)
  return { name: 'deposit watcher', intervalMs: 2_000, tick: () => watcher.tick() }
}
