import { defineModule } from '../../plugins/module.ts'
import { createLedgerService } from './ledger.service.ts'

/** The ledger, the one way money moves; no routes of its own. */
export const ledgerModule = defineModule('ledger', async (app) => {
  app.services.ledger = createLedgerService(app.db.pool)
})
