import { defineModule } from '../define-module.ts'
import { accountRoutes } from './account.routes.ts'
import { createAccountService } from './account.service.ts'

export const accountModule = defineModule({
  name: 'account',
  services: (app) => {
    const { ledger, settings, outflows } = app.services
    return { accounts: createAccountService({ pool: app.db.pool, ledger, settings, outflows }) }
  },
  routes: accountRoutes,
})
