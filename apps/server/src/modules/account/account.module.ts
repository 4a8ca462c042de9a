import { defineModule } from '../../plugins/module.ts'
import { accountRoutes } from './account.routes.ts'
import { createAccountService } from './account.service.ts'

export const accountModule = defineModule('account', async (app) => {
  const { ledger, settings, outflows } = app.services
  app.services.accounts = createAccountService({ pool: app.db.pool, ledger, settings, outflows })
  await app.register(accountRoutes)
})
