import { createHash } from 'node:crypto'
import {
  ACCOUNT_CURRENCY,
  ACCOUNT_KINDS,
  CURRENCY_DECIMALS,
  parseAmount,
  trimDecimal,
  type AccountKind,
  type Currency,
} from '@hope/api'
import type pg from 'pg'
import { clientOr } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import * as repo from './ledger.repository.ts'

export type PlatformKind =
  | 'treasury'
  | 'fees'
  | 'chain_deposits'
  | 'withdrawals_in_flight'
  | 'reward_pool'
  | 'stake_pool'
  | 'stage_sales'
  | 'hope_supply'
  | 'redemption_pool'

const ERROR_REASONS = {
  HL001: 'insufficient_balance',
  HL002: 'idempotency_conflict',
  HL003: 'already_resolved',
  HL004: 'invalid_params',
} as const

function toAppError(e: unknown): unknown {
  const code = (e as { code?: string }).code
  if (code && code in ERROR_REASONS) {
    return new AppError(ERROR_REASONS[code as keyof typeof ERROR_REASONS], { cause: e })
  }
  return e
}

/** The hash an idempotency key is bound to: the same key with other content is refused. */
export const requestHash = (content: unknown): Buffer =>
  createHash('sha256').update(JSON.stringify(content)).digest()

/**
 * What an earlier request under `key` moved (each leg's amount), when it carried the same
 * `content`; null when the key is new. The same key with other content is refused with 409
 * `idempotency_conflict`, as `apply` refuses it, before any other check can answer instead.
 * @example const replay = await replayedRequest(q, 'upgrade:7:abc', { level: 3 })
 */
export async function replayedRequest(
  q: Pick<pg.Pool | pg.PoolClient, 'query'>,
  key: string,
  content: unknown,
): Promise<string[] | null> {
  const hash = await repo.requestHashOf(q, key)
  if (!hash) return null
  if (!hash.equals(requestHash(content))) throw new AppError('idempotency_conflict')
  return repo.movedUnder(q, key)
}

/** A stable shard for a key, so retries of one request hit the same hot-account row. */
export function shardFor(key: string, shards: number): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) % shards
}

const USER_CACHE_LIMIT = 100_000
/**
 * Ledger round trips this process keeps open before posted requests wait to go together. Two,
 * not four: on two cores fewer, larger calls move more (16 clients 5,800 transfers/s against
 * 4,700 with four; 64 clients 9,200 against 8,400), and a second call keeps posting going while
 * one waits on a row another transaction holds.
 */
const IN_FLIGHT = 2
/** Requests sent together in one `ledger_post_many` call at most. */
const MAX_BATCH = 64

interface Waiting extends repo.PostRequest {
  resolve: (outcome: repo.ApplyOutcome) => void
  reject: (e: unknown) => void
}

/**
 * The ledger: every balance change is one call of `apply` with an idempotency key.
 * Account ids never change, so they are cached in the process.
 */
export function createLedgerService(pool: pg.Pool) {
  let platform: Map<string, number[]> | null = null
  const userCache = new Map<number, Record<AccountKind, number>>()

  async function platformIds(): Promise<Map<string, number[]>> {
    if (platform) return platform
    const map = new Map<string, number[]>()
    // Made by the migrations and never changed: cached whichever side read them.
    for (const a of await repo.platformAccounts(clientOr(pool).q)) {
      const k = `${a.kind}:${a.currency}`
      const list = map.get(k) ?? []
      list[a.shard] = a.id
      map.set(k, list)
    }
    platform = map
    return map
  }

  /** One request on its own round trip; outside a caller's transaction a lost key race is asked again. */
  async function applyOne(
    key: string,
    hash: Buffer,
    legs: repo.SqlLeg[],
    q: Pick<pg.Pool | pg.PoolClient, 'query'>,
  ): Promise<repo.ApplyOutcome> {
    try {
      return await repo.applyLegs(q, key, hash, legs)
    } catch (e) {
      // Another first-time request with this key committed meanwhile: ask again for its answer.
      const firstTime = e as { code?: string; constraint?: string }
      if (
        firstTime.code === '23505' &&
        firstTime.constraint === 'ledger_transfers_request_key_leg_key' &&
        q === pool
      ) {
        try {
          return await repo.applyLegs(q, key, hash, legs)
        } catch (again) {
          throw toAppError(again)
        }
      }
      throw toAppError(e)
    }
  }

  // Posted requests outside a caller's transaction: up to IN_FLIGHT go out at once, each on its
  // own; the ones arriving meanwhile wait and go together in the next round trip.
  const waiting: Waiting[] = []
  let inFlight = 0
  const counts = { single: 0, batches: 0, batched: 0, splits: 0 }

  function pump(): void {
    while (inFlight < IN_FLIGHT && waiting.length > 0) {
      // One request per key in a call: a repeated key waits for the next one and replays.
      const keys = new Set<string>()
      const batch: Waiting[] = []
      for (let i = 0; i < waiting.length && batch.length < MAX_BATCH;) {
        const w = waiting[i]!
        if (keys.has(w.key)) {
          i += 1
          continue
        }
        keys.add(w.key)
        batch.push(w)
        waiting.splice(i, 1)
      }
      inFlight += 1
      void send(batch).finally(() => {
        inFlight -= 1
        pump()
      })
    }
  }

  async function send(batch: Waiting[]): Promise<void> {
    if (batch.length === 1) {
      const w = batch[0]!
      counts.single += 1
      await applyOne(w.key, w.hash, w.legs, pool).then(w.resolve, w.reject)
      return
    }
    let outcomes: repo.ManyOutcome[]
    try {
      outcomes = await repo.postMany(pool, batch)
    } catch {
      // A request was refused (or a key raced on other accounts) and the call moved nothing:
      // each half goes again, down to single requests, which get their own answers.
      counts.splits += 1
      const half = Math.ceil(batch.length / 2)
      await send(batch.slice(0, half))
      await send(batch.slice(half))
      return
    }
    counts.batches += 1
    counts.batched += batch.length
    for (const [i, w] of batch.entries()) {
      const o = outcomes[i]!
      if (o.conflict) w.reject(new AppError('idempotency_conflict'))
      else w.resolve({ replayed: o.replayed, transfers: o.transfers })
    }
  }

  return {
    /**
     * Applies the legs of one request all or nothing, in one round trip. A repeated key with
     * the same content returns the first result (`replayed`); with other content, 409.
     * Under load, requests outside a transaction share round trips with requests arriving at
     * the same time; each still moves all or nothing and gets its own answer.
     * @example apply('transfer:7:abc', { to, amount }, [{ kind: 'posted', debit, credit, amount: '5', logType: 9 }])
     */
    async apply(
      key: string,
      content: unknown,
      legs: repo.SqlLeg[],
      q: Pick<pg.Pool | pg.PoolClient, 'query'> = pool,
    ): Promise<repo.ApplyOutcome> {
      const hash = requestHash(content)
      if (q !== pool || !repo.allPosted(legs)) return applyOne(key, hash, legs, q)
      return new Promise((resolve, reject) => {
        waiting.push({ key, hash, legs, resolve, reject })
        pump()
      })
    },

    /** How posted requests went out so far: alone, together (calls, requests), calls split after a refusal. */
    postStats(): Readonly<typeof counts> {
      return { ...counts }
    },

    /** A platform account; hot ones are sharded and `shardKey` spreads the load. */
    async platformAccount(kind: PlatformKind, currency: Currency, shardKey = ''): Promise<number> {
      const shards = (await platformIds()).get(`${kind}:${currency}`)
      if (!shards?.length) throw new Error(`no platform account ${kind}:${currency}`)
      return shards[shards.length === 1 ? 0 : shardFor(shardKey, shards.length)]!
    },

    /**
     * What a user's account holds less its reservations, in the currency's minor units: a
     * cheap early refusal before work that grows with an amount. The ledger still refuses an
     * overdraft itself under any concurrency.
     */
    async available(
      userId: number,
      kind: AccountKind,
      q: Pick<pg.Pool | pg.PoolClient, 'query'> = pool,
    ): Promise<bigint> {
      const row = (await repo.userAccounts(q, userId)).find((r) => r.kind === kind)
      if (!row) return 0n
      const units18 = (v: string) => parseAmount(trimDecimal(v), 18) ?? 0n
      const free = units18(row.balance) - units18(row.debitsPending)
      return free / 10n ** BigInt(18 - CURRENCY_DECIMALS[ACCOUNT_CURRENCY[kind]])
    },

    /** HOPE sold so far (the sale counter the price follows), as a decimal string. */
    hopeIssued(): Promise<string> {
      return repo.hopeIssued(pool)
    },

    /** A user's five accounts and the HOPE sold so far, in one round trip (the balance read). */
    userAccountsAndIssued(userId: number) {
      return repo.userAccountsAndIssued(pool, userId)
    },

    /** The transfers an `apply` answered with, as they were written. */
    transfersById(ids: number[]): Promise<repo.TransferRow[]> {
      return repo.transfersById(pool, ids)
    },

    /** The amounts a request key moved, leg by leg (empty when the key is new), in `q`'s view. */
    movedUnder(key: string, q: Pick<pg.Pool | pg.PoolClient, 'query'> = pool): Promise<string[]> {
      return repo.movedUnder(q, key)
    },

    async userAccountIds(userId: number): Promise<Record<AccountKind, number>> {
      const cached = userCache.get(userId)
      if (cached) return cached
      const { q, inTransaction: inside } = clientOr(pool)
      const rows = await repo.userAccounts(q, userId)
      if (rows.length !== ACCOUNT_KINDS.length)
        throw new AppError('not_found', { detail: `accounts of user ${userId}` })
      const ids = Object.fromEntries(rows.map((r) => [r.kind, r.id])) as Record<AccountKind, number>
      // Read inside a transaction, the accounts may be its own and still roll back: not kept.
      if (inside) return ids
      if (userCache.size >= USER_CACHE_LIMIT) userCache.clear()
      userCache.set(userId, ids)
      return ids
    },
  }
}

export type LedgerService = ReturnType<typeof createLedgerService>
