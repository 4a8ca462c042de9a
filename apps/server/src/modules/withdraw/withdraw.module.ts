import { defineModule } from '../../plugins/module.ts'
import { withdrawRoutes } from './withdraw.routes.ts'
import { createWithdrawService } from './withdraw.service.ts'

export const withdrawModule = defineModule('withdraw', async (app) => {
  const { ledger, settings, outflows, notices } = app.services
  app.services.withdrawals = createWithdrawService({
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
  })
  await app.register(withdrawRoutes)
})
