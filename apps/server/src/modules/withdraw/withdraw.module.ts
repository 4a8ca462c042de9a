import { defineModule } from '../define-module.ts'
import { createWithdrawJob } from './withdraw.job.ts'
import { withdrawRoutes } from './withdraw.routes.ts'
import { createWithdrawService } from './withdraw.service.ts'

/** Withdrawals: requested and reviewed through the routes, paid by the sender from the hot wallet. */
export const withdrawModule = defineModule({
  name: 'withdraw',
  services: (app) => {
    const { ledger, settings, outflows, notices } = app.services
    return {
      withdrawals: createWithdrawService({
        pool: app.db.pool,
        ledger,
        settings,
        outflows,
        notices,
        chainId: () => app.chain?.chainId,
        // One attempt: the service bounds the wait and takes no answer as unknown.
        codeAt: app.chain
          ? (address) =>
              app.chain!.client.request(
                { method: 'eth_getCode', params: [address, 'latest'] },
                { retryCount: 0 },
              )
          : undefined,
      }),
    }
  },
  routes: withdrawRoutes,
  // The sender runs only with a hot wallet to pay from.
  jobs: ({ app, pool, chain, hotWallet, log }) => {
    if (!hotWallet) return []
    const { ledger, settings, notices } = app.services
    return [
      createWithdrawJob({
        pool,
        ledger,
        settings,
        client: chain.client,
        chainId: chain.chainId,
        hotWallet,
        notices,
        log,
      }),
    ]
  },
})
