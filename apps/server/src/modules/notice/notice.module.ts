import { defineModule } from '../define-module.ts'
import { noticeRoutes } from './notice.routes.ts'
import { createNoticeService } from './notice.service.ts'

export const noticeModule = defineModule({
  name: 'notice',
  services: (app) => ({ notices: createNoticeService({ pool: app.db.pool }) }),
  routes: noticeRoutes,
})
