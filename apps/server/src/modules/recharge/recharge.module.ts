import { defineModule } from '../define-module.ts'
import { rechargeRoutes } from './recharge.routes.ts'
import { createRechargeService } from './recharge.service.ts'

export const rechargeModule = defineModule({
  name: 'recharge',
  services: (app) => ({
    recharges: createRechargeService({
      pool: app.db.pool,
      settings: app.services.settings,
      chain: () => app.chain,
    }),
  }),
  routes: rechargeRoutes,
})
