import type { JobDefinition } from '../../jobs/job.ts'
import { reconcileChain } from './reconcile.service.ts'

/** Chain and books compared every minute; a difference is logged at error level. */
export function createReconcileJob(
  deps: Parameters<typeof reconcileChain>[0] & {
    logError: (extra: object, msg: string) => void
  },
): JobDefinition {
  const { logError, ...reconcile } = deps
  return {
    name: 'chain reconciliation',
    intervalMs: 60_000,
    async tick() {
      const report = await reconcileChain(reconcile)
      if (report.problems.length) logError({ problems: report.problems }, 'chain and books differ')
      return {}
    },
  }
}
