import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function figuresRoutes(app: FastifyInstance): Promise<void> {
  const figures = app.services.figures
  defineRoute(app, 'userAccount/figures', ({ session }) => figures.figures(session!.user.id))
}
