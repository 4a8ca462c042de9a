import { requirePublicUrl } from '../../config.ts'
import { createSignatureVerifier } from '../../lib/signature.ts'
import { defineModule } from '../define-module.ts'
import { userRoutes } from './user.routes.ts'
import { createUserService } from './user.service.ts'

export const userModule = defineModule({
  name: 'user',
  services: (app, opts) => {
    const { notices, settings } = app.services
    return {
      users: createUserService({
        notices,
        pool: app.db.pool,
        settings,
        // Contract wallets (EIP-1271) are checked through the chain when there is one.
        verifySignature: opts.verifySignature ?? createSignatureVerifier(app.chain?.client),
        chainId: () => app.chain?.chainId,
        site: { url: requirePublicUrl(app.config), origins: app.config.publicOrigins },
        ...(opts.now ? { now: opts.now } : {}),
      }),
    }
  },
  routes: userRoutes,
})
