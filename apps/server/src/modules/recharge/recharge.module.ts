import { defineModule } from '../../plugins/module.ts'
import { rechargeRoutes } from './recharge.routes.ts'
import { createRechargeService } from './recharge.service.ts'

export const rechargeModule = defineModule('recharge', async (app) => {
  app.services.recharges = createRechargeService({
    pool: app.db.pool,
    settings: app.services.settings,
    chain: () => app.chain,
  })
  await app.register(rechargeRoutes)
})
