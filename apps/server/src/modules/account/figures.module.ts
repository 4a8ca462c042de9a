import { defineModule } from '../../plugins/module.ts'
import { figuresRoutes } from './figures.routes.ts'
import { createFiguresService } from './figures.service.ts'

/** The public figures; their consensus is staking's summary, so they come after staking. */
export const figuresModule = defineModule('figures', async (app) => {
  app.services.figures = createFiguresService({
    pool: app.db.pool,
    consensus: app.services.staking.summary,
  })
  await app.register(figuresRoutes)
})
