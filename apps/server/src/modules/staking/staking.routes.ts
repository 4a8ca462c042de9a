import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function stakingRoutes(app: FastifyInstance): Promise<void> {
  const staking = app.services.staking
  defineRoute(app, 'game/info', ({ session }) => staking.info(session!.user.id))
  defineRoute(app, 'game/change', ({ session, params }) =>
    staking.enterConsensus(session!.user, params),
  )
  defineRoute(app, 'game/myStake', ({ session, params }) =>
    staking.positions(session!.user.id, params),
  )
}
