import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function redemptionRoutes(app: FastifyInstance): Promise<void> {
  const redemption = app.services.redemption
  defineRoute(app, 'game/sqChange', ({ session, params }) =>
    redemption.redeem(session!.user, params),
  )
  defineRoute(app, 'game/stakeList', ({ session, params }) =>
    redemption.pledges(session!.user.id, params),
  )
}
