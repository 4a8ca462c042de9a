import type { JobDefinition } from '../../jobs/job.ts'
import { createChainScan, type ScanLog } from './reconcile.scan.ts'
import { reconcileChain } from './reconcile.service.ts'

/**
 * Every minute, and once at the start: the chain scan reads what the vault and the platform's
 * addresses did since its checkpoint (alarms for what the books do not know), then chain and
 * books are compared and a difference is logged at error level. The process holding the scan's
 * lock does both; the others leave it to that one.
 */
export function createReconcileJob(
  deps: Parameters<typeof createChainScan>[0] & { log: ScanLog },
): JobDefinition {
  const scan = createChainScan(deps)
  return {
    name: 'chain reconciliation',
    intervalMs: 60_000,
    runAtStart: true,
    async tick() {
      const scanned = await scan.tick()
      if (scanned.skipped === 'locked') return scanned
      const report = await reconcileChain(deps)
      if (report.problems.length)
        deps.log.error({ problems: report.problems }, 'chain and books differ')
      return { ...scanned, problems: report.problems.length }
    },
  }
}
