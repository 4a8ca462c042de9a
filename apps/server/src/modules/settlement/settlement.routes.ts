import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function settlementRoutes(app: FastifyInstance): Promise<void> {
  const settlement = app.services.settlement
  defineRoute(app, 'admin/settle', ({ params }) => settlement.settleByOperator(params.day))
  defineRoute(app, 'admin/settlementRun', ({ params }) => settlement.run(params.id))
  defineRoute(app, 'admin/settlementRuns', ({ params }) => settlement.runs(params))
}
