import { defineModule } from '../../plugins/module.ts'
import { teamRoutes } from './team.routes.ts'
import { createTeamService } from './team.service.ts'

export const teamModule = defineModule('team', async (app) => {
  app.services.team = createTeamService({ pool: app.db.pool, settings: app.services.settings })
  await app.register(teamRoutes)
})
