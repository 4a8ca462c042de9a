import { defineModule } from '../define-module.ts'
import { createRankingJob } from './ranking.job.ts'
import { rankingRoutes } from './ranking.routes.ts'
import { createRankingService } from './ranking.service.ts'

export const rankingModule = defineModule({
  name: 'ranking',
  services: (app, opts) => ({
    ranking: createRankingService({
      pool: app.db.pool,
      settings: app.services.settings,
      ...(opts.now ? { now: opts.now } : {}),
    }),
  }),
  routes: rankingRoutes,
  jobs: ({ app }) => [createRankingJob(app.services.ranking)],
})
