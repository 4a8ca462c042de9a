import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function membershipRoutes(app: FastifyInstance): Promise<void> {
  const membership = app.services.membership
  defineRoute(app, 'game/vipInfo', ({ session }) => membership.vipInfo(session!.user.id))
  defineRoute(app, 'game/upgrade', ({ session, params }) =>
    membership.upgrade(session!.user, params),
  )
  defineRoute(app, 'game/activate', ({ session, params }) =>
    membership.activate(session!.user, params),
  )
  defineRoute(app, 'admin/flagRobot', ({ operator, params }) =>
    membership.flagRobot(operator!.id, params),
  )
}
