import { defineModule } from '../../plugins/module.ts'
import { membershipRoutes } from './membership.routes.ts'
import { createMembershipService } from './membership.service.ts'

export const membershipModule = defineModule('membership', async (app) => {
  const { settings, sale, outflows } = app.services
  app.services.membership = createMembershipService({
    pool: app.db.pool,
    settings,
    sale,
    outflows,
  })
  await app.register(membershipRoutes)
})
