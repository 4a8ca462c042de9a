import { defineModule } from '../../plugins/module.ts'
import { noticeRoutes } from './notice.routes.ts'
import { createNoticeService } from './notice.service.ts'

export const noticeModule = defineModule('notice', async (app) => {
  app.services.notices = createNoticeService({ pool: app.db.pool })
  await app.register(noticeRoutes)
})
