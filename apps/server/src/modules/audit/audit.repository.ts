import type pg from 'pg'

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

export interface AuditInput {
  operatorId: number
  action: string
  /** The member acted on; null for a change that is nobody's in particular (a price). */
  targetUserId: number | null
  accountId?: number | null
  transferId?: number | null
  amount?: string | null
  reason: string
  before: unknown
  after: unknown
}

export async function insertAudit(q: Queryable, a: AuditInput): Promise<void> {
  await q.query(
    `INSERT INTO operator_audit (operator_id, action, target_user_id, account_id, transfer_id, amount, reason, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (transfer_id) WHERE transfer_id IS NOT NULL DO NOTHING`,
    [
      a.operatorId,
      a.action,
      a.targetUserId,
      a.accountId ?? null,
      a.transferId ?? null,
      a.amount ?? null,
      a.reason,
      JSON.stringify(a.before),
      JSON.stringify(a.after),
    ],
  )
}
