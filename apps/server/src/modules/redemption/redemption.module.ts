import { defineModule } from '../../plugins/module.ts'
import { redemptionRoutes } from './redemption.routes.ts'
import { createRedemptionService } from './redemption.service.ts'

export const redemptionModule = defineModule('redemption', async (app) => {
  const { ledger, settings, sale } = app.services
  app.services.redemption = createRedemptionService({ pool: app.db.pool, ledger, settings, sale })
  await app.register(redemptionRoutes)
})
