import { defineModule, type ModuleClock } from '../../plugins/module.ts'
import { porRoutes } from './por.routes.ts'
import { sealKeyLoader } from './por.seal.ts'
import { createPorService } from './por.service.ts'

export const porModule = defineModule('por', async (app, opts: ModuleClock) => {
  app.services.por = createPorService({
    pool: app.db.pool,
    settings: app.services.settings,
    sealKey: sealKeyLoader(app.config),
    ...(opts.now ? { now: opts.now } : {}),
  })
  await app.register(porRoutes)
})
