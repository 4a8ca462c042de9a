import { defineModule } from '../define-module.ts'
import { createDepositJob } from './deposit.job.ts'

/** The deposits: the watcher that credits what arrives at the users' deposit addresses. */
export const depositModule = defineModule({
  name: 'deposit',
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
