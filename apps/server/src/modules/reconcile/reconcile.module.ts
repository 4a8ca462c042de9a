import { defineModule } from '../define-module.ts'
import { createReconcileJob } from './reconcile.job.ts'

/** The reconciliation of the chain with the books: its job scans the chain and compares. */
export const reconcileModule = defineModule({
  name: 'reconcile',
  jobs: ({ app, pool, chain, hotWallet, log }) => {
    const { ledger, settings } = app.services
    return [
      createReconcileJob({
        pool,
        ledger,
        settings,
        client: chain.client,
        chainId: chain.chainId,
        hotWallet: hotWallet?.address ?? null,
        log,
        alarmRaised: (kind) => app.metrics.chainAlarmRaised(kind),
      }),
    ]
  },
})
