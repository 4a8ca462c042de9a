import { defineModule } from '../../plugins/module.ts'
import { createSettlementJob } from './settlement.job.ts'
import { settlementRoutes } from './settlement.routes.ts'
import { createSettlementService } from './settlement.service.ts'

/** The daily settlement: its service, the job that runs it when due, and its routes. */
export const settlementModule = defineModule('settlement', async (app) => {
  const { pool } = app.db
  const { ledger, settings, sale } = app.services
  const settlement = createSettlementService({ pool, ledger, settings, sale })
  app.services.settlement = settlement
  app.services.settlementJob = createSettlementJob({ pool, settings, settlement })
  await app.register(settlementRoutes)
})
