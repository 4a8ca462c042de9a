import { defineModule } from '../../plugins/module.ts'
import { nodesRoutes } from './nodes.routes.ts'
import { createNodesService } from './nodes.service.ts'

export const nodesModule = defineModule('nodes', async (app) => {
  const { settings, sale } = app.services
  app.services.nodes = createNodesService({ pool: app.db.pool, settings, sale })
  await app.register(nodesRoutes)
})
