import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

/** The operator console's views (`admin/*`); the roles each admits are in the contract. */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const admin = app.services.admin
  defineRoute(app, 'admin/dashboard', () => admin.dashboard())
  defineRoute(app, 'admin/signInsByDay', () => admin.signInsByDay())
  defineRoute(app, 'admin/resolveAlarm', ({ operator, params }) =>
    admin.resolveAlarm(operator!, params),
  )
  defineRoute(app, 'admin/checkLedger', () => admin.checkLedger())
  defineRoute(app, 'admin/users', ({ params }) => admin.users(params))
  defineRoute(app, 'admin/userTree', ({ params }) => admin.userTree(params))
  defineRoute(app, 'admin/withdrawals', ({ params }) => admin.withdrawals(params))
  defineRoute(app, 'admin/bulkReviewWithdraw', ({ operator, params }) =>
    admin.bulkReview(operator!, params),
  )
  defineRoute(app, 'admin/deposits', ({ params }) => admin.deposits(params))
  defineRoute(app, 'admin/settings', () => admin.settings())
  defineRoute(app, 'admin/updateSetting', ({ operator, params }) =>
    admin.updateSetting(operator!, params),
  )
  defineRoute(app, 'admin/settingHistory', ({ params }) => admin.settingHistory(params))
  defineRoute(app, 'admin/audit', ({ params }) => admin.audit(params))
}
