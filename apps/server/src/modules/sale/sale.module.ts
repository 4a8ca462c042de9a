import { defineModule } from '../../plugins/module.ts'
import { createSaleService } from './sale.service.ts'

/** The sale that redemption, membership, nodes and the settlement read; no routes of its own. */
export const saleModule = defineModule('sale', async (app) => {
  const { ledger, settings } = app.services
  app.services.sale = createSaleService({ pool: app.db.pool, ledger, settings })
})
