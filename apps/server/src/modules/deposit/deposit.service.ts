import type { Queryable } from '../../db/transaction.ts'
import * as repo from './deposit.repository.ts'

/**
 * The deposit module's door: what other modules may read of it. The last block scanned for
 * deposits on `chainId` (null before the first scan): reconciliation reads how far the watcher
 * has come.
 */
export function readCursor(q: Queryable, chainId: number): Promise<bigint | null> {
  return repo.readCursor(q, chainId)
}
