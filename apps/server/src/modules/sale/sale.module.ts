import { defineModule } from '../define-module.ts'
import { createSaleService } from './sale.service.ts'

/** The sale that redemption, membership, nodes and the settlement read; no routes of its own. */
export const saleModule = defineModule({
  name: 'sale',
  services: (app) => {
    const { ledger, settings } = app.services
    return { sale: createSaleService({ pool: app.db.pool, ledger, settings }) }
  },
})
