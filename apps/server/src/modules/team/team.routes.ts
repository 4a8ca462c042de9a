import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function teamRoutes(app: FastifyInstance): Promise<void> {
  const team = app.services.team
  defineRoute(app, 'game/groupTj', ({ session }) => team.teamStats(session!.user.id))
  defineRoute(app, 'game/groupZt', ({ session, params }) =>
    team.directMembers(session!.user.id, params),
  )
}
