import { defineModule } from '../define-module.ts'
import { createLedgerCheckJob } from './console.job.ts'
import { adminRoutes } from './console.routes.ts'
import { createAdminService } from './console.service.ts'

/** The console's pages, over the withdrawals, the settlement and the users' sign-ins. */
export const consoleModule = defineModule({
  name: 'console',
  services: (app, opts) => {
    const { settings, withdrawals, settlement, users } = app.services
    return {
      admin: createAdminService({
        pool: app.db.pool,
        settings,
        withdrawals,
        settlement,
        signIns: (days) => users.signInsOfLastDays(days),
        signInsByDay: (range, offsetMinutes) => users.signInsByDay(range, offsetMinutes),
        ...(opts.now ? { now: opts.now } : {}),
      }),
    }
  },
  routes: adminRoutes,
  jobs: ({ app, log }) => [
    createLedgerCheckJob(app.services.admin, (extra: object, msg: string) => log.error(extra, msg)),
  ],
})
