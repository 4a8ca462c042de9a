import { defineModule } from '../define-module.ts'
import { createSettlementJob } from './settlement.job.ts'
import { settlementRoutes } from './settlement.routes.ts'
import { createSettlementService } from './settlement.service.ts'

/** The daily settlement: its service, the job that runs it when due, and its routes. */
export const settlementModule = defineModule({
  name: 'settlement',
  services: (app) => {
    const { ledger, settings, sale } = app.services
    return { settlement: createSettlementService({ pool: app.db.pool, ledger, settings, sale }) }
  },
  routes: settlementRoutes,
  jobs: ({ app, pool }) => {
    const { settings, settlement } = app.services
    return [createSettlementJob({ pool, settings, settlement })]
  },
})
