import { defineModule } from '../define-module.ts'
import { nodesRoutes } from './nodes.routes.ts'
import { createNodesService } from './nodes.service.ts'

export const nodesModule = defineModule({
  name: 'nodes',
  services: (app) => {
    const { settings, sale } = app.services
    return { nodes: createNodesService({ pool: app.db.pool, settings, sale }) }
  },
  routes: nodesRoutes,
})
