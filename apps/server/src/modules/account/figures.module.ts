import { defineModule } from '../define-module.ts'
import { createVolumeJob } from './figures.job.ts'
import { figuresRoutes } from './figures.routes.ts'
import { createFiguresService } from './figures.service.ts'

/** The public figures; their consensus is staking's summary, so they come after staking. */
export const figuresModule = defineModule({
  name: 'figures',
  services: (app) => ({
    figures: createFiguresService({ pool: app.db.pool, consensus: app.services.staking.summary }),
  }),
  routes: figuresRoutes,
  jobs: ({ app }) => [createVolumeJob(app.services.figures)],
})
