import { defineModule } from '../define-module.ts'
import { createDepositJob } from './deposit.job.ts'
import { rechargeRoutes } from './recharge.routes.ts'
import { createRechargeService } from './recharge.service.ts'

/**
 * Recharges: a user's deposit address and claims (the routes), and the deposit watcher that
 * credits what arrives at those addresses once final (the job).
 */
export const rechargeModule = defineModule({
  name: 'recharge',
  services: (app) => ({
    recharges: createRechargeService({
      pool: app.db.pool,
      settings: app.services.settings,
      chain: () => app.chain,
    }),
  }),
  routes: rechargeRoutes,
  jobs: ({ app, pool, chain, log }) => {
    const { ledger, settings } = app.services
    return [
      createDepositJob({
        pool,
        ledger,
        settings,
        client: chain.client,
        chainId: chain.chainId,
        log: (msg, extra) => log.warn({ extra }, msg),
        logError: (msg, extra) => log.error({ extra }, msg),
      }),
    ]
  },
})
