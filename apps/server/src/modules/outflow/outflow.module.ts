import { createTypedDataVerifier, type TypedDataVerifier } from '../../lib/signature.ts'
import { defineModule, type ModuleClock } from '../../plugins/module.ts'
import { outflowRoutes } from './outflow.routes.ts'
import { createOutflowService } from './outflow.service.ts'

export const outflowModule = defineModule(
  'outflow',
  async (app, opts: ModuleClock & { verifyTypedData?: TypedDataVerifier | undefined }) => {
    app.services.outflows = createOutflowService({
      settings: app.services.settings,
      verify: opts.verifyTypedData ?? createTypedDataVerifier(app.chain?.client),
      chainId: () => app.chain?.chainId,
      ...(opts.now ? { now: opts.now } : {}),
    })
    await app.register(outflowRoutes)
  },
)
