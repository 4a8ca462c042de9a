import { defineModule } from '../../plugins/module.ts'
import { uploadRoutes } from './upload.routes.ts'
import { createUploadService, uploadsDirOf } from './upload.service.ts'

export const uploadModule = defineModule('upload', async (app) => {
  app.services.uploads = createUploadService({
    pool: app.db.pool,
    dir: uploadsDirOf(app.config.dataDir),
  })
  await app.register(uploadRoutes)
})
