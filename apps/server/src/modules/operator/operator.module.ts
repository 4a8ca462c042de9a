import { defineModule } from '../../plugins/module.ts'
import { secretKeyLoader } from './operator.secret.ts'
import { operatorRoutes } from './operator.routes.ts'
import { createOperatorService } from './operator.service.ts'

export const operatorModule = defineModule('operator', async (app) => {
  const { ledger, settings } = app.services
  app.services.operators = createOperatorService({
    pool: app.db.pool,
    ledger,
    settings,
    // Authenticator codes follow the real clock, also in tests that move the business clock.
    secretKey: secretKeyLoader(app.config),
  })
  await app.register(operatorRoutes)
})
