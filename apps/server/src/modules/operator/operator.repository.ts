import type { OperatorRole } from '@hope/api'
import type pg from 'pg'

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

export interface OperatorRow {
  id: number
  username: string
  passwordHash: string
  role: OperatorRole
  disabled: boolean
}

const COLUMNS = `o.id::int AS id, o.username, o.password_hash AS "passwordHash", o.role, o.disabled`

export async function insertOperator(
  q: Queryable,
  username: string,
  passwordHash: string,
  role: OperatorRole,
): Promise<number> {
  const res = await q.query<{ id: number }>(
    'INSERT INTO operators (username, password_hash, role) VALUES ($1, $2, $3) RETURNING id::int AS id',
    [username, passwordHash, role],
  )
  return res.rows[0]!.id
}

export async function findOperator(
  q: Queryable,
  username: string,
): Promise<OperatorRow | undefined> {
  return (
    await q.query<OperatorRow>(`SELECT ${COLUMNS} FROM operators o WHERE o.username = $1`, [
      username,
    ])
  ).rows[0]
}

export async function openOperatorSession(
  q: Queryable,
  operatorId: number,
  tokenHash: Buffer,
  ip: string,
  ttlMs: number,
) {
  await q.query(
    `INSERT INTO operator_sessions (operator_id, token_hash, ip, expires_at) VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')`,
    [operatorId, tokenHash, ip, ttlMs],
  )
}

export async function findLiveOperatorSession(
  q: Queryable,
  tokenHash: Buffer,
): Promise<OperatorRow | undefined> {
  const res = await q.query<OperatorRow>(
    `SELECT ${COLUMNS} FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND NOT o.disabled`,
    [tokenHash],
  )
  return res.rows[0]
}

export interface AuditInput {
  operatorId: number
  action: string
  targetUserId: number
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

export async function auditOfTransfer(
  q: Queryable,
  transferId: number,
): Promise<{ before: { balance: string }; after: { balance: string } } | undefined> {
  const res = await q.query<{ before: { balance: string }; after: { balance: string } }>(
    'SELECT before, after FROM operator_audit WHERE transfer_id = $1',
    [transferId],
  )
  return res.rows[0]
}

export async function entryBalanceAfter(
  q: Queryable,
  transferId: number,
  accountId: number,
): Promise<string> {
  const res = await q.query<{ b: string }>(
    'SELECT balance_after::text AS b FROM ledger_entries WHERE transfer_id = $1 AND account_id = $2',
    [transferId, accountId],
  )
  return res.rows[0]!.b
}
