import { defineModule, type ModuleClock } from '../../plugins/module.ts'
import { rankingRoutes } from './ranking.routes.ts'
import { createRankingService } from './ranking.service.ts'

export const rankingModule = defineModule('ranking', async (app, opts: ModuleClock) => {
  app.services.ranking = createRankingService({
    pool: app.db.pool,
    settings: app.services.settings,
    ...(opts.now ? { now: opts.now } : {}),
  })
  await app.register(rankingRoutes)
})
