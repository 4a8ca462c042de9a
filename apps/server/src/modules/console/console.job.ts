import type { JobDefinition } from '../../jobs/job.ts'
import type { AdminService } from './console.service.ts'

/**
 * The ledger check (the `ledger:verify` invariants) at start and every 10 minutes; the console
 * shows the newest result, problems are logged at error level.
 */
export function createLedgerCheckJob(
  admin: AdminService,
  logError: (extra: object, msg: string) => void,
): JobDefinition {
  return {
    name: 'ledger check',
    intervalMs: 600_000,
    runAtStart: true,
    async tick() {
      const report = await admin.checkLedgerTick()
      if ('problems' in report && report.problems > 0)
        logError({ problems: report.problems }, 'the ledger check found problems')
      return report
    },
  }
}
