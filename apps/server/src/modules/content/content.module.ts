import { defineModule } from '../../plugins/module.ts'
import { contentRoutes } from './content.routes.ts'
import { createContentService } from './content.service.ts'

export const contentModule = defineModule('content', async (app) => {
  app.services.content = createContentService({ pool: app.db.pool })
  await app.register(contentRoutes)
})
