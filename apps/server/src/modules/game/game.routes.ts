import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function gameRoutes(app: FastifyInstance): Promise<void> {
  const game = app.services.game
  defineRoute(app, 'game/info', ({ session }) => game.info(session!.user.id))
  defineRoute(app, 'game/change', ({ session, params }) => game.change(session!.user, params))
  defineRoute(app, 'game/myStake', ({ session, params }) => game.myStake(session!.user.id, params))
  defineRoute(app, 'game/sqChange', ({ session, params }) => game.sqChange(session!.user, params))
  defineRoute(app, 'game/stakeList', ({ session, params }) =>
    game.stakeList(session!.user.id, params),
  )
  defineRoute(app, 'game/groupTj', ({ session }) => game.groupTj(session!.user.id))
  defineRoute(app, 'game/groupZt', ({ session, params }) => game.groupZt(session!.user.id, params))
  defineRoute(app, 'game/earnings', ({ session }) => game.earnings(session!.user.id))
  defineRoute(app, 'game/vipInfo', ({ session }) => game.vipInfo(session!.user.id))
  defineRoute(app, 'game/upgrade', ({ session, params }) => game.upgrade(session!.user, params))
  defineRoute(app, 'game/buyNode', ({ session, params }) => game.buyNode(session!.user, params))
  defineRoute(app, 'game/activate', ({ session, params }) => game.activate(session!.user, params))
  defineRoute(app, 'admin/grantShareholder', ({ operator, params }) =>
    game.grantShareholder(operator!.id, params),
  )
  defineRoute(app, 'admin/flagRobot', ({ operator, params }) =>
    game.flagRobot(operator!.id, params),
  )
  defineRoute(app, 'admin/settle', ({ params }) => game.settleByOperator(params.day))
  defineRoute(app, 'admin/settlementRun', ({ params }) => game.settlementRun(params.id))
  defineRoute(app, 'admin/settlementRuns', ({ params }) => game.settlementRuns(params))
}
