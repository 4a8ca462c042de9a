import { defineModule, type ModuleClock } from '../../plugins/module.ts'
import { adminRoutes } from './console.routes.ts'
import { createAdminService } from './console.service.ts'

/** The console's pages, over the withdrawals, the settlement and the users' sign-ins. */
export const consoleModule = defineModule('console', async (app, opts: ModuleClock) => {
  const { settings, withdrawals, settlement, users } = app.services
  app.services.admin = createAdminService({
    pool: app.db.pool,
    settings,
    withdrawals,
    settlement,
    signIns: (days) => users.signInsOfLastDays(days),
    signInsByDay: (range, offsetMinutes) => users.signInsByDay(range, offsetMinutes),
    ...(opts.now ? { now: opts.now } : {}),
  })
  await app.register(adminRoutes)
})
