import type { OperatorRole } from '@hope/api'
import type pg from 'pg'

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

export interface OperatorRow {
  id: number
  username: string
  passwordHash: string
  role: OperatorRole
  disabled: boolean
  /** The sealed authenticator secret (operator.secret.ts); null for an operator never enrolled. */
  totpSecret: string | null
}

const COLUMNS = `o.id::int AS id, o.username, o.password_hash AS "passwordHash", o.role, o.disabled,
  o.totp_secret AS "totpSecret"`

/** The new operator's id, or null when the username is taken. */
export async function insertOperator(
  q: Queryable,
  username: string,
  passwordHash: string,
  role: OperatorRole,
  totpSecret: string,
): Promise<number | null> {
  const res = await q.query<{ id: number }>(
    `INSERT INTO operators (username, password_hash, role, totp_secret) VALUES ($1, $2, $3, $4)
     ON CONFLICT (username) DO NOTHING RETURNING id::int AS id`,
    [username, passwordHash, role, totpSecret],
  )
  return res.rows[0]?.id ?? null
}

/**
 * Records `step` as the operator's last accepted code step; false when a code of this step or a
 * later one was already used (the row lock orders two sign-ins racing with one code).
 */
export async function claimTotpStep(q: Queryable, operatorId: number, step: bigint) {
  const res = await q.query(
    `UPDATE operators SET totp_last_step = $2
     WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
    [operatorId, step.toString()],
  )
  return res.rowCount === 1
}

export async function revokeOperatorSession(q: Queryable, tokenHash: Buffer): Promise<void> {
  await q.query(
    'UPDATE operator_sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL',
    [tokenHash],
  )
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
