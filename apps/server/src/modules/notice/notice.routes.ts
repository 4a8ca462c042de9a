import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function noticeRoutes(app: FastifyInstance): Promise<void> {
  const notices = app.services.notices
  defineRoute(app, 'userAccount/notices', ({ session, params }) =>
    notices.list(session!.user.id, params),
  )
  defineRoute(app, 'userAccount/readNotices', ({ session }) => notices.readAll(session!.user.id))
}
