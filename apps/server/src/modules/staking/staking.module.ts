import { defineModule } from '../../plugins/module.ts'
import { stakingRoutes } from './staking.routes.ts'
import { createStakingService } from './staking.service.ts'

export const stakingModule = defineModule('staking', async (app) => {
  const { ledger, settings } = app.services
  app.services.staking = createStakingService({ pool: app.db.pool, ledger, settings })
  await app.register(stakingRoutes)
})
