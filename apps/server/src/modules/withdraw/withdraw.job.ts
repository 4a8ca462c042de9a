import type { JobDefinition } from '../../jobs/job.ts'
import { createWithdrawalSender } from './withdraw.sender.ts'

/** The withdrawal sender's round over approved and mined payouts, every two seconds. */
export function createWithdrawJob(
  deps: Parameters<typeof createWithdrawalSender>[0],
): JobDefinition {
  const sender = createWithdrawalSender(deps)
  return { name: 'withdrawal sender', intervalMs: 2_000, tick: () => sender.tick() }
}
