import type { JobDefinition } from '../../jobs/job.ts'
import type { PorPublisher } from './por.publisher.ts'

/**
 * The proof-of-liabilities snapshot: taken daily at the setting's time (or when an operator
 * asks), then followed until its publish transaction is at the depth. Each tick holds an
 * advisory lock, so one process works at a time.
 */
export function createPorJob(publisher: PorPublisher): JobDefinition {
  return {
    name: 'proof of liabilities',
    intervalMs: 15_000,
    runAtStart: true,
    tick: () => publisher.tick(),
  }
}
