import { defineModule } from '../define-module.ts'
import { stakingRoutes } from './staking.routes.ts'
import { createStakingService } from './staking.service.ts'

export const stakingModule = defineModule({
  name: 'staking',
  services: (app) => {
    const { ledger, settings } = app.services
    return { staking: createStakingService({ pool: app.db.pool, ledger, settings }) }
  },
  routes: stakingRoutes,
})
