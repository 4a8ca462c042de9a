import { defineModule } from '../define-module.ts'
import { secretKeyLoader } from './operator.secret.ts'
import { operatorRoutes } from './operator.routes.ts'
import { createOperatorService } from './operator.service.ts'

export const operatorModule = defineModule({
  name: 'operator',
  services: (app) => {
    const { ledger, settings } = app.services
    return {
      operators: createOperatorService({
        pool: app.db.pool,
        ledger,
        settings,
        // Authenticator codes follow the real clock, also in tests that move the business clock.
        secretKey: secretKeyLoader(app.config),
      }),
    }
  },
  routes: operatorRoutes,
})
