import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function quotesRoutes(app: FastifyInstance): Promise<void> {
  const quotes = app.services.quotes
  defineRoute(app, 'main/getETHPrice', () => quotes.ethPrice())
  defineRoute(app, 'main/priceHistory', ({ params }) => quotes.history(params.symbol, params.range))
  defineRoute(app, 'admin/setEthPrice', ({ operator, params }) =>
    quotes.setEthPrice(operator!.id, params),
  )
}
