import type { FastifyInstance } from 'fastify'
import { depositAddress } from '../../chain/chain.service.ts'
import { defineRoute } from '../../plugins/routes.ts'

export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const accounts = app.services.accounts
  defineRoute(app, 'userAccount/balance', ({ session }) => accounts.balance(session!.user.id))
  defineRoute(app, 'userAccount/balanceDetail', ({ session, params }) =>
    accounts.balanceDetail(session!.user.id, params),
  )
  defineRoute(app, 'userAccount/enableCoins', () => accounts.enableCoins())
  defineRoute(app, 'userAccount/transfer', ({ session, params }) =>
    accounts.transfer(session!.user, params),
  )
  defineRoute(app, 'userAccount/checkAddress', async ({ session, params, req }) => {
    await app.guardLookup(req)
    return accounts.checkAddress(session!.user, params.address)
  })
  defineRoute(app, 'userAccount/collect', ({ session, params }) =>
    accounts.collect(session!.user, params),
  )
  defineRoute(app, 'userAccount/getAddress', () => depositAddress(app.chain, app.services.settings))
  defineRoute(app, 'main/getETLDPrice', () => accounts.currentHopePrice())
}
