import type { JobDefinition } from '../../jobs/job.ts'
import type { RankingService } from './ranking.service.ts'

/** The day's ranking snapshot, taken once per day (a request finding none takes it too). */
export function createRankingJob(ranking: RankingService): JobDefinition {
  return { name: 'ranking snapshot', intervalMs: 300_000, tick: () => ranking.ensureSnapshot() }
}
