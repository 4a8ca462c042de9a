import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function nodesRoutes(app: FastifyInstance): Promise<void> {
  const nodes = app.services.nodes
  defineRoute(app, 'game/buyNode', ({ session, params }) => nodes.buyNode(session!.user, params))
  defineRoute(app, 'game/earnings', ({ session }) => nodes.earnings(session!.user.id))
  defineRoute(app, 'admin/grantShareholder', ({ operator, params }) =>
    nodes.grantShareholder(operator!.id, params),
  )
}
