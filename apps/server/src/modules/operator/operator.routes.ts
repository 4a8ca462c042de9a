import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

export async function operatorRoutes(app: FastifyInstance): Promise<void> {
  const operators = app.services.operators
  defineRoute(app, 'admin/login', ({ params, req }) =>
    app.guardOperatorSignIn(req, params.username, () => operators.login(params, req.ip)),
  )
  defineRoute(app, 'admin/me', ({ operator }) => ({
    username: operator!.username,
    role: operator!.role,
  }))
  defineRoute(app, 'admin/logout', ({ req }) => operators.logout(req.headers.token))
  defineRoute(app, 'admin/credit', ({ operator, params }) => operators.credit(operator!, params))
  defineRoute(app, 'admin/debit', ({ operator, params }) => operators.debit(operator!, params))
}
