import { defineModule } from '../define-module.ts'
import { createPorJob } from './por.job.ts'
import { createPorPublisher } from './por.publisher.ts'
import { porRoutes } from './por.routes.ts'
import { sealKeyLoader } from './por.seal.ts'
import { createPorService } from './por.service.ts'
import { buildTreeInWorker } from './por.tree.ts'

/**
 * The proof of liabilities: its snapshots' routes, and the job that takes and publishes them,
 * which runs only with the registry's owner key to publish with.
 */
export const porModule = defineModule({
  name: 'por',
  services: (app, opts) => ({
    por: createPorService({
      pool: app.db.pool,
      settings: app.services.settings,
      sealKey: sealKeyLoader(app.config),
      ...(opts.now ? { now: opts.now } : {}),
    }),
  }),
  routes: porRoutes,
  jobs: ({ app, pool, chain, hotWallet, porPublisher, log }) => {
    if (!porPublisher) return []
    const publisher = createPorPublisher({
      pool,
      settings: app.services.settings,
      chain,
      publisher: porPublisher,
      hotWallet: hotWallet?.address ?? null,
      buildTree: buildTreeInWorker,
      sealKey: sealKeyLoader(app.config),
      log: (msg, extra) => log.warn(extra, msg),
    })
    return [createPorJob(publisher)]
  },
})
