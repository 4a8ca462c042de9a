import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function rechargeRoutes(app: FastifyInstance): Promise<void> {
  const recharges = app.services.recharges
  defineRoute(app, 'userAccount/recharge', ({ session, params }) =>
    recharges.claim(session!.user.id, params.txHash),
  )
  defineRoute(app, 'userAccount/myRecharge', ({ session, params }) =>
    recharges.mine(session!.user.id, params),
  )
}
