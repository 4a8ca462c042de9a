import type { JobDefinition } from '../../jobs/job.ts'
import type { RankingService } from './ranking.service.ts'

/** How often the job looks: the snapshot is taken again when `rankingRefreshMinutes` old. */
export const RANKING_JOB_INTERVAL_MS = 60_000

/** Today's ranking snapshot, taken again once it is `rankingRefreshMinutes` old (60 by default). */
export function createRankingJob(ranking: RankingService): JobDefinition {
  return {
    name: 'ranking snapshot',
    intervalMs: RANKING_JOB_INTERVAL_MS,
    tick: () => ranking.refreshSnapshot(),
  }
}
