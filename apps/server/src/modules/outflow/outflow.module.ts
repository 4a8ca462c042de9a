import { createTypedDataVerifier } from '../../lib/signature.ts'
import { defineModule } from '../define-module.ts'
import { outflowRoutes } from './outflow.routes.ts'
import { createOutflowService } from './outflow.service.ts'

export const outflowModule = defineModule({
  name: 'outflow',
  services: (app, opts) => ({
    outflows: createOutflowService({
      settings: app.services.settings,
      verify: opts.verifyTypedData ?? createTypedDataVerifier(app.chain?.client),
      chainId: () => app.chain?.chainId,
      ...(opts.now ? { now: opts.now } : {}),
    }),
  }),
  routes: outflowRoutes,
})
