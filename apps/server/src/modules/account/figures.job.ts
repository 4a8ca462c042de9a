import type { JobDefinition } from '../../jobs/job.ts'
import type { FiguresService } from './figures.service.ts'

/**
 * The account figures' volumes: every 10 s the ledger transfers posted since the last run are
 * added to the users' running totals, in batches under an advisory lock (see `countVolumes`).
 */
export function createVolumeJob(figures: FiguresService): JobDefinition {
  return {
    name: 'account volumes',
    intervalMs: 10_000,
    runAtStart: true,
    tick: () => figures.countVolumes(),
  }
}
