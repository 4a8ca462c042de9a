import { defineModule } from '../define-module.ts'
import { membershipRoutes } from './membership.routes.ts'
import { createMembershipService } from './membership.service.ts'

export const membershipModule = defineModule({
  name: 'membership',
  services: (app) => {
    const { settings, sale, outflows } = app.services
    return {
      membership: createMembershipService({ pool: app.db.pool, settings, sale, outflows }),
    }
  },
  routes: membershipRoutes,
})
