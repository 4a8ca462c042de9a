/**
 * The deposit module's door: what other modules may read of it. Reconciliation reads how far
 * the watcher has scanned each chain.
 */
export { readCursor } from './deposit.repository.ts'
