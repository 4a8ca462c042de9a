import type { Queryable } from '../../db/transaction.ts'
import * as repo from './deposit.repository.ts'

/**
 * The deposits' door (in the recharge module): what other modules may read of them. The last
 * block scanned for deposits on `chainId` (null before the first scan): reconciliation reads how
 * far the watcher has come.
 */
export function readCursor(q: Queryable, chainId: number): Promise<bigint | null> {
  return repo.readCursor(q, chainId)
}
