import { defineModule } from '../define-module.ts'
import { contentRoutes } from './content.routes.ts'
import { createContentService } from './content.service.ts'

export const contentModule = defineModule({
  name: 'content',
  services: (app) => ({ content: createContentService({ pool: app.db.pool }) }),
  routes: contentRoutes,
})
