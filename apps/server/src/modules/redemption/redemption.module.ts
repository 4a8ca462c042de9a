import { defineModule } from '../define-module.ts'
import { redemptionRoutes } from './redemption.routes.ts'
import { createRedemptionService } from './redemption.service.ts'

export const redemptionModule = defineModule({
  name: 'redemption',
  services: (app) => {
    const { ledger, settings, sale } = app.services
    return { redemption: createRedemptionService({ pool: app.db.pool, ledger, settings, sale }) }
  },
  routes: redemptionRoutes,
})
