import { defineModule } from '../define-module.ts'
import { createLedgerService } from './ledger.service.ts'

/** The ledger, the one way money moves; no routes of its own. */
export const ledgerModule = defineModule({
  name: 'ledger',
  services: (app) => ({ ledger: createLedgerService(app.db.pool) }),
})
