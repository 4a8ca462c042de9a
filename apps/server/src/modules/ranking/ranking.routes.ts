import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function rankingRoutes(app: FastifyInstance): Promise<void> {
  const ranking = app.services.ranking
  defineRoute(app, 'main/ranking', ({ session, params }) =>
    ranking.ranking(session!.user.id, params),
  )
}
