import { trimDecimal, type Page, type Recharge } from '@hope/api'
import type pg from 'pg'
import type { ChainConnection } from '../../chain/chain.service.ts'
import { lockForTransaction } from '../../db/advisory-lock.ts'
import { inTransaction, type Queryable } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './recharge.repository.ts'
import type { OpenClaimRow } from './recharge.repository.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

/**
 * The claims on `chainId` that no deposit of their user answers yet, oldest first, 200 at most:
 * what the deposit watcher looks for on chain.
 */
export function listUnansweredClaims(q: Queryable, chainId: number): Promise<OpenClaimRow[]> {
  return repo.listUnansweredClaims(q, chainId)
}

/** Fails claim `id`, whose transfer can never count, saying why (`failure`). */
export function failClaim(q: Queryable, id: number, failure: string): Promise<void> {
  return repo.failClaim(q, id, failure)
}

/** Fails `userId`'s own claim of a hash still on chain, saying why. */
export function failClaimOfUser(
  q: Queryable,
  claim: { chainId: number; txHash: string; userId: number },
  failure: string,
): Promise<void> {
  return repo.failClaimOfUser(q, claim, failure)
}

/** Advisory lock namespace of a user's recharge claims (the second key is the user's id). */
const CLAIMS_LOCK = LOCK_KEYS.rechargeClaims

export function createRechargeService(deps: {
  pool: pg.Pool
  settings: SettingsService
  chain: () => ChainConnection | undefined
}) {
  const { pool, settings } = deps

  function connection(): ChainConnection {
    const chain = deps.chain()
    if (!chain) throw new AppError('service_unavailable', { detail: 'chain' })
    return chain
  }

  async function present(rows: repo.RechargeRow[]): Promise<Recharge[]> {
    const required = (await settings.get()).chainConfirmations
    const head = rows.some((r) => r.block !== null)
      ? await connection().client.getBlockNumber({ cacheTime: 0 })
      : 0n
    return rows.map((r) => {
      const depth = r.block === null ? 0 : Number(head - BigInt(r.block) + 1n)
      return {
        txHash: r.txHash,
        amount: r.amount === null ? null : trimDecimal(r.amount),
        status: r.status,
        confirmations:
          r.status === 'credited'
            ? Math.max(required, depth)
            : Math.max(0, Math.min(depth, required)),
        confirmationsRequired: required,
        createdAt: r.createdAt.toISOString(),
      }
    })
  }

  return {
    /**
     * Records a hash the app's wallet flow sent, as this user's claim; idempotent per (user,
     * hash). Another user's claim of the same hash changes nothing here: the watcher credits
     * whoever the chain shows as the sender and fails the other claims.
     */
    async claim(userId: number, txHash: string): Promise<Recharge> {
      const chain = connection()
      const claim = { userId, chainId: chain.chainId, txHash }
      const max = (await settings.get()).rechargePendingClaimsMax
      await inTransaction(pool, async (q) => {
        // One user's claims one at a time, so the count below holds when the insert lands.
        await lockForTransaction(q, [CLAIMS_LOCK, userId])
        if (await repo.hasClaim(q, claim)) return
        // Each open claim is read by the watcher until it resolves: a user may not queue more.
        if ((await repo.countPendingClaims(q, userId, chain.chainId)) >= max)
          throw new AppError('too_many_pending_recharges', { detail: String(max) })
        await repo.insertClaim(q, claim)
      })
      const row = await repo.findRecharge(pool, userId, chain.chainId, txHash)
      return (await present([row!]))[0]!
    },

    async mine(
      userId: number,
      page: { pageNum: number; pageSize: number },
    ): Promise<Page<Recharge>> {
      const chain = connection()
      const [rows, total] = await Promise.all([
        repo.listRecharges(pool, userId, chain.chainId, {
          limit: page.pageSize,
          offset: (page.pageNum - 1) * page.pageSize,
        }),
        repo.countRecharges(pool, userId, chain.chainId),
      ])
      return { list: await present(rows), total, ...page }
    },
  }
}

export type RechargeService = ReturnType<typeof createRechargeService>
