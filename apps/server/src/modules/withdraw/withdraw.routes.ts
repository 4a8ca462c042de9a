import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function withdrawRoutes(app: FastifyInstance): Promise<void> {
  const withdrawals = app.services.withdrawals
  defineRoute(app, 'userAccount/withdraw', ({ session, params }) =>
    withdrawals.request(session!.user, params),
  )
  // Asks the chain: counted per IP like the other address look-ups.
  defineRoute(app, 'userAccount/checkWithdrawAddress', async ({ params, req }) => {
    await app.guardLookup(req)
    return withdrawals.checkDestination(params.address)
  })
  defineRoute(app, 'userAccount/myWithDraw', ({ session, params }) =>
    withdrawals.mine(session!.user.id, params),
  )
  defineRoute(app, 'userAccount/cancelWithdraw', ({ session, params }) =>
    withdrawals.cancel(session!.user.id, params.id),
  )
  defineRoute(app, 'admin/reviewWithdraw', ({ operator, params }) =>
    withdrawals.review(operator!.id, params),
  )
}
