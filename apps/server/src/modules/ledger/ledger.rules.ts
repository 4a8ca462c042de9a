/**
 * The ledger's rules as pure functions over amounts in minor units (bigint). The SQL function
 * `ledger_apply` (migration 0002) is the production implementation; this model states the
 * same semantics so property tests can compare the two and check the invariants.
 */

/** A leg as the SQL function `ledger_apply` takes it: amounts are decimal strings. */
export type SqlLeg =
  | {
      kind: 'posted' | 'pending'
      debit: number
      credit: number
      amount: string
      logType: number
      ref?: string
    }
  | { kind: 'post_pending'; pending: number; amount?: string; ref?: string }
  | { kind: 'void_pending'; pending: number; ref?: string }

export type LegKind = 'posted' | 'pending' | 'post_pending' | 'void_pending'

interface MovingLeg {
  debit: number
  credit: number
  amount: bigint
  logType: number
  ref?: string
}

export type Leg =
  | ({ kind: 'posted' } & MovingLeg)
  | ({ kind: 'pending' } & MovingLeg)
  | { kind: 'post_pending'; pending: number; amount?: bigint; ref?: string }
  | { kind: 'void_pending'; pending: number; ref?: string }

export interface ModelAccount {
  id: number
  currency: string
  /** User accounts may never go below zero; platform accounts are issuers. */
  isUser: boolean
  balance: bigint
  debitsPending: bigint
  creditsPending: bigint
}

export interface ModelTransfer {
  id: number
  kind: LegKind
  debit: number
  credit: number
  currency: string
  amount: bigint
  pendingId: number | null
}

export interface LedgerModel {
  accounts: Map<number, ModelAccount>
  transfers: ModelTransfer[]
  requests: Map<string, { hash: string; transferIds: number[] }>
}

export type ApplyResult =
  | { ok: true; replayed: boolean; transferIds: number[]; model: LedgerModel }
  | {
      ok: false
      error: 'insufficient_funds' | 'idempotency_conflict' | 'pending_resolved' | 'malformed'
    }

const clone = (m: LedgerModel): LedgerModel => ({
  accounts: new Map([...m.accounts].map(([id, a]) => [id, { ...a }])),
  transfers: [...m.transfers],
  requests: new Map(m.requests),
})

/** Applies one request's legs all-or-nothing; the input model is never changed. */
export function applyLegs(model: LedgerModel, key: string, hash: string, legs: Leg[]): ApplyResult {
  const earlier = model.requests.get(key)
  if (earlier) {
    return earlier.hash === hash
      ? { ok: true, replayed: true, transferIds: earlier.transferIds, model }
      : { ok: false, error: 'idempotency_conflict' }
  }
  if (legs.length === 0) return { ok: false, error: 'malformed' }
  const m = clone(model)
  const ids: number[] = []
  const account = (id: number) => m.accounts.get(id)
  const available = (a: ModelAccount) => a.balance - a.debitsPending

  for (const leg of legs) {
    let debit: ModelAccount | undefined
    let credit: ModelAccount | undefined
    let amount: bigint
    let release = 0n
    let pendingId: number | null = null
    if (leg.kind === 'posted' || leg.kind === 'pending') {
      debit = account(leg.debit)
      credit = account(leg.credit)
      amount = leg.amount
      if (
        !debit ||
        !credit ||
        debit === credit ||
        debit.currency !== credit.currency ||
        amount <= 0n
      ) {
        return { ok: false, error: 'malformed' }
      }
    } else {
      const pending = m.transfers.find((t) => t.id === leg.pending && t.kind === 'pending')
      if (!pending || m.transfers.some((t) => t.pendingId === leg.pending))
        return { ok: false, error: 'pending_resolved' }
      debit = account(pending.debit)!
      credit = account(pending.credit)!
      release = pending.amount
      pendingId = pending.id
      amount = leg.kind === 'void_pending' ? pending.amount : (leg.amount ?? pending.amount)
      if (leg.kind === 'post_pending' && (amount <= 0n || amount > pending.amount))
        return { ok: false, error: 'malformed' }
    }

    if (leg.kind === 'pending') {
      if (debit.isUser && available(debit) < amount)
        return { ok: false, error: 'insufficient_funds' }
      debit.debitsPending += amount
      credit.creditsPending += amount
    } else if (leg.kind === 'void_pending') {
      debit.debitsPending -= release
      credit.creditsPending -= release
    } else {
      debit.debitsPending -= release
      credit.creditsPending -= release
      if (debit.isUser && available(debit) < amount)
        return { ok: false, error: 'insufficient_funds' }
      debit.balance -= amount
      credit.balance += amount
    }
    const id = (m.transfers.at(-1)?.id ?? 0) + 1
    m.transfers.push({
      id,
      kind: leg.kind,
      debit: debit.id,
      credit: credit.id,
      currency: debit.currency,
      amount,
      pendingId,
    })
    ids.push(id)
  }
  m.requests.set(key, { hash, transferIds: ids })
  return { ok: true, replayed: false, transferIds: ids, model: m }
}

/** Invariants 1 and 2 of DESIGN §4 plus the pending bookkeeping; returns what is broken. */
export function checkModelInvariants(model: LedgerModel): string[] {
  const problems: string[] = []
  const sums = new Map<string, { balance: bigint; dp: bigint; cp: bigint }>()
  for (const a of model.accounts.values()) {
    const s = sums.get(a.currency) ?? { balance: 0n, dp: 0n, cp: 0n }
    s.balance += a.balance
    s.dp += a.debitsPending
    s.cp += a.creditsPending
    sums.set(a.currency, s)
    if (a.isUser && (a.balance < 0n || a.balance - a.debitsPending < 0n))
      problems.push(`account ${a.id} is negative`)
    if (a.debitsPending < 0n || a.creditsPending < 0n)
      problems.push(`account ${a.id} has negative pending`)
  }
  for (const [currency, s] of sums) {
    if (s.balance !== 0n) problems.push(`${currency} balances sum to ${s.balance}`)
    if (s.dp !== s.cp)
      problems.push(`${currency} pending debits ${s.dp} != pending credits ${s.cp}`)
  }
  return problems
}

/**
 * A fee of `fixed + amount × rate`, rounded up to the currency's smallest unit: the rule the app
 * shows, written once in `@hope/api`.
 */
export { feeFor } from '@hope/api/money-rules'
