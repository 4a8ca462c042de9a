import { defineModule } from '../define-module.ts'
import { teamRoutes } from './team.routes.ts'
import { createTeamService } from './team.service.ts'

export const teamModule = defineModule({
  name: 'team',
  services: (app) => ({
    team: createTeamService({ pool: app.db.pool, settings: app.services.settings }),
  }),
  routes: teamRoutes,
})
