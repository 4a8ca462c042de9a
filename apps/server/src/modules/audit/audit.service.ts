import type pg from 'pg'
import * as repo from './audit.repository.ts'

export type { AuditInput } from './audit.repository.ts'

/**
 * The operators' audit trail (`operator_audit`), its one writer: every operator action and
 * every change the console makes leaves a line here, written in the transaction of the change
 * itself so the two commit or roll back together. A line naming a transfer is written once.
 * @example await recordAudit(q, { operatorId, action: 'price', targetUserId: null, reason: '', before, after })
 */
export function recordAudit(
  q: Pick<pg.Pool | pg.PoolClient, 'query'>,
  entry: repo.AuditInput,
): Promise<void> {
  return repo.insertAudit(q, entry)
}
