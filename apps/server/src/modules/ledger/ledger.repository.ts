import { trimDecimal } from '@hope/api'
import type pg from 'pg'
import type { SqlLeg } from './ledger.rules.ts'

export type { SqlLeg }

export interface ApplyOutcome {
  replayed: boolean
  transfers: number[]
}

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

/** The legs as the column arrays `ledger_apply` takes. */
export function legArrays(legs: SqlLeg[]): unknown[] {
  return [
    legs.map((l) => l.kind),
    legs.map((l) => ('debit' in l ? l.debit : null)),
    legs.map((l) => ('credit' in l ? l.credit : null)),
    legs.map((l) => ('amount' in l ? (l.amount ?? null) : null)),
    legs.map((l) => ('logType' in l ? l.logType : null)),
    legs.map((l) => ('pending' in l ? l.pending : null)),
    legs.map((l) => l.ref ?? null),
  ]
}

export const APPLY_SQL =
  'SELECT replayed, transfers::text[] AS transfers FROM ledger_apply($1, $2, $3, $4, $5, $6, $7, $8, $9)'

/** Requests whose legs all post at once go through the set-based `ledger_post`. */
export const POST_SQL =
  'SELECT replayed, transfers::text[] AS transfers FROM ledger_post($1, $2, $3, $4, $5, $6, $7)'

export type PostedLeg = Extract<SqlLeg, { debit: number }> & { kind: 'posted' }
export const allPosted = (legs: SqlLeg[]): legs is PostedLeg[] =>
  legs.length > 0 && legs.every((l) => l.kind === 'posted')

/** The statement and parameters that apply `legs` under `key` in one round trip. */
export function applyQuery(
  key: string,
  hash: Buffer,
  legs: SqlLeg[],
): { name: string; text: string; values: unknown[] } {
  if (allPosted(legs)) {
    return {
      name: 'ledger_post',
      text: POST_SQL,
      values: [
        key,
        hash,
        legs.map((l) => l.debit),
        legs.map((l) => l.credit),
        legs.map((l) => l.amount),
        legs.map((l) => l.logType),
        legs.map((l) => l.ref ?? null),
      ],
    }
  }
  return { name: 'ledger_apply', text: APPLY_SQL, values: [key, hash, ...legArrays(legs)] }
}

/** One round trip: the request's legs applied all or nothing by `ledger_post` or `ledger_apply`. */
export async function applyLegs(
  q: Queryable,
  key: string,
  hash: Buffer,
  legs: SqlLeg[],
): Promise<ApplyOutcome> {
  const res = await q.query<{ replayed: boolean; transfers: string[] }>(applyQuery(key, hash, legs))
  const r = res.rows[0]!
  return { replayed: r.replayed, transfers: r.transfers.map(Number) }
}

/** One request of a `ledger_post_many` call: its key, request hash and posted legs. */
export interface PostRequest {
  key: string
  hash: Buffer
  legs: PostedLeg[]
}

/** A request's answer from `ledger_post_many`; `conflict`: its key was used for other content. */
export interface ManyOutcome extends ApplyOutcome {
  conflict: boolean
}

export const POST_MANY_SQL = `SELECT req, replayed, conflict, transfers::text[] AS transfers
  FROM ledger_post_many($1, $2, $3, $4, $5, $6, $7, $8, $9)`

/** The statement that posts several requests (distinct keys) in one round trip. */
export function postManyQuery(requests: PostRequest[]): {
  name: string
  text: string
  values: unknown[]
} {
  const legs = requests.flatMap((r, i) => r.legs.map((l, n) => ({ ...l, req: i + 1, n })))
  return {
    name: 'ledger_post_many',
    text: POST_MANY_SQL,
    values: [
      requests.map((r) => r.key),
      requests.map((r) => r.hash),
      legs.map((l) => l.req),
      legs.map((l) => l.n),
      legs.map((l) => l.debit),
      legs.map((l) => l.credit),
      legs.map((l) => l.amount),
      legs.map((l) => l.logType),
      legs.map((l) => l.ref ?? null),
    ],
  }
}

/** Posts the requests all or nothing in one round trip: the answers in the requests' order. */
export async function postMany(q: Queryable, requests: PostRequest[]): Promise<ManyOutcome[]> {
  const res = await q.query<{
    req: number
    replayed: boolean
    conflict: boolean
    transfers: string[] | null
  }>(postManyQuery(requests))
  const out: ManyOutcome[] = []
  for (const r of res.rows) {
    out[r.req - 1] = {
      replayed: r.replayed,
      conflict: r.conflict,
      transfers: (r.transfers ?? []).map(Number),
    }
  }
  if (out.length !== requests.length || out.includes(undefined as never))
    throw new Error('ledger_post_many answered fewer requests than it was sent')
  return out
}

export interface AccountRow {
  id: number
  userId: number | null
  kind: string
  currency: 'USDT' | 'HOPE'
  shard: number
  balance: string
  debitsPending: string
  creditsPending: string
}

const ACCOUNT_COLUMNS = `id::int AS "id", user_id::int AS "userId", kind, currency, shard, balance::text AS balance,
  debits_pending::text AS "debitsPending", credits_pending::text AS "creditsPending"`

/** A user's five accounts; a named statement, planned once per connection (the balance screen). */
export async function userAccounts(q: Queryable, userId: number): Promise<AccountRow[]> {
  const res = await q.query<AccountRow>({
    name: 'user_accounts',
    text: `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE user_id = $1 ORDER BY id`,
    values: [userId],
  })
  return res.rows
}

/**
 * A user's five accounts and the HOPE sold so far (which sets the price they are valued at), in
 * one round trip: the balance screen's whole read.
 */
export async function userAccountsAndIssued(
  q: Queryable,
  userId: number,
): Promise<{ accounts: AccountRow[]; issued: string }> {
  const res = await q.query<AccountRow & { issued: string }>({
    name: 'user_accounts_issued',
    text: `SELECT ${ACCOUNT_COLUMNS}, (SELECT sold::text FROM token_sale WHERE id = 1) AS issued
           FROM ledger_accounts WHERE user_id = $1 ORDER BY id`,
    values: [userId],
  })
  const issued = res.rows[0]?.issued ?? (await hopeIssued(q))
  return { accounts: res.rows.map(({ issued: _, ...account }) => account), issued }
}

export async function platformAccounts(q: Queryable): Promise<AccountRow[]> {
  const res = await q.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts WHERE user_id IS NULL ORDER BY id`,
  )
  return res.rows
}

export interface TransferRow {
  id: number
  kind: string
  debitAccountId: number
  creditAccountId: number
  currency: string
  amount: string
  logType: number
  pendingId: number | null
}

export async function transfersById(q: Queryable, ids: number[]): Promise<TransferRow[]> {
  const res = await q.query<TransferRow>(
    `SELECT id::int AS id, kind, debit_account_id::int AS "debitAccountId", credit_account_id::int AS "creditAccountId",
            currency, amount::text AS amount, log_type AS "logType", pending_id::int AS "pendingId"
     FROM ledger_transfers WHERE id = ANY($1) ORDER BY id`,
    [ids],
  )
  return res.rows
}

/** HOPE sold so far (the sale counter the stages follow), as a decimal string. */
export async function hopeIssued(q: Queryable): Promise<string> {
  const res = await q.query<{ issued: string }>({
    name: 'hope_issued',
    text: `SELECT sold::text AS issued FROM token_sale WHERE id = 1`,
  })
  return res.rows[0]?.issued ?? '0'
}

/** The hash of the request that first used `key`, or null when the key is new. */
export async function requestHashOf(q: Queryable, key: string): Promise<Buffer | null> {
  const res = await q.query<{ request_hash: Buffer }>(
    `SELECT request_hash FROM ledger_transfers WHERE request_key = $1 AND leg = 0`,
    [key],
  )
  return res.rows[0]?.request_hash ?? null
}

/** The amounts a request key moved, leg by leg; empty when the key is new. */
export async function movedUnder(q: Queryable, key: string): Promise<string[]> {
  const res = await q.query<{ amount: string }>(
    `SELECT amount::text FROM ledger_transfers WHERE request_key = $1 ORDER BY leg`,
    [key],
  )
  return res.rows.map((r) => trimDecimal(r.amount))
}
