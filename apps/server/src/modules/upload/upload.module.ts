import { defineModule } from '../define-module.ts'
import { uploadRoutes } from './upload.routes.ts'
import { createUploadService, uploadsDirOf } from './upload.service.ts'

export const uploadModule = defineModule({
  name: 'upload',
  services: (app) => ({
    uploads: createUploadService({ pool: app.db.pool, dir: uploadsDirOf(app.config.dataDir) }),
  }),
  routes: uploadRoutes,
})
