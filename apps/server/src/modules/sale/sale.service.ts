import { LOG_TYPE } from '@hope/api'
import type pg from 'pg'
import { createTurns } from '../../lib/turns.ts'
import { inTransaction, type Queryable } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import { formatHope, formatUsdt, hopeUnits } from '../../lib/units.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { teamAdd } from '../team/team.service.ts'
import * as repo from './sale.repository.ts'
import {
  buyAcrossStages,
  priceAt,
  stageParams,
  StageLimitError,
  type StageParams,
} from './sale.rules.ts'

/**
 * The HOPE sold so far, in the caller's transaction; `lock` holds the sale counter until it ends
 * (step 2 of docs/lock-order.md), for a purchase that is about to add to it.
 */
export function soldHope(q: Queryable, lock = false): Promise<string> {
  return repo.soldHope(q, lock)
}

/** Adds `hope` to the HOPE sold, in the caller's transaction (which holds the counter). */
export function addSold(q: Queryable, hope: string): Promise<void> {
  return repo.addSold(q, hope)
}

/** What a member's split account was granted by purchases, and how much of it was released. */
export function splitOf(
  q: Queryable,
  userId: number,
): Promise<{ total: string; released: string }> {
  return repo.splitOf(q, userId)
}

/** One member's part of a day's split release: from their split account to their community account. */
export interface SplitRelease {
  userId: string
  split: number
  community: number
  amount: bigint
}

/**
 * Releases the next batch of split grants with HOPE left as of `day` (what was bought later
 * left out; user ids after `after`), in the caller's transaction: `release(total, released)` of
 * each is added to what it released and it is settled through `day`; a robot's grant is settled
 * with nothing released. Returns what each released, for the caller to move; empty when none is
 * left.
 */
export async function releaseDueSplits(
  q: Queryable,
  day: string,
  batch: { limit: number; after: string },
  release: (total: bigint, released: bigint) => bigint,
): Promise<SplitRelease[]> {
  const rows = await repo.lockDueSplits(q, day, batch.limit, batch.after)
  const released = rows.map((r) => ({
    userId: r.userId,
    split: r.split,
    community: r.community,
    amount: r.isRobot ? 0n : release(hopeUnits(r.total), hopeUnits(r.released)),
  }))
  if (rows.length)
    await repo.markSplitsReleased(
      q,
      day,
      released.map((r) => r.userId),
      released.map((r) => formatHope(r.amount)),
    )
  return released
}

/** `buyAcrossStages`, with a purchase past the stage limit refused as too large. */
export function buyFromStages(sold: bigint, cost: bigint, p: StageParams) {
  try {
    return buyAcrossStages(sold, cost, p)
  } catch (e) {
    if (e instanceof StageLimitError) throw new AppError('amount_too_large', { cause: e })
    throw e
  }
}

/** HOPE's sale in stages (DESIGN §6): the real-time price and purchases into split HOPE. */
/**
 * Purchases of this process take turns before opening their transaction: every purchase locks
 * the sale row, so many at once would each hold a pool connection only to wait on that lock.
 */
export const saleTurns = createTurns(2)

/**
 * Runs `work` as a purchase: in its turn, in a transaction of its own that is retried on a
 * serialization conflict.
 */
export function inPurchaseTurn<T>(
  pool: pg.Pool,
  work: (q: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return saleTurns.run(() => inTransaction(pool, work, { retryConflicts: true }))
}

export function createSaleService(deps: {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
}) {
  const { pool, ledger, settings } = deps

  /** Real-time price in USDT units: the current stage's price. */
  async function currentPrice(q: Queryable = pool): Promise<bigint> {
    return priceAt(hopeUnits(await repo.soldHope(q)), stageParams(await settings.get()))
  }

  return {
    currentPrice,

    /** Real-time HOPE price in USDT: the current stage price. */
    async hopePrice(): Promise<string> {
      return formatUsdt(await currentPrice())
    },

    /**
     * A purchase (upgrade, node) in the caller's transaction: the USDT goes to stage sales and
     * buys HOPE from the current stage on into the buyer's split account; counts as community
     * performance upline.
     */
    async purchase(
      q: pg.PoolClient,
      userId: number,
      key: string,
      cost: bigint,
      content: Record<string, number>,
      payerId = userId,
    ): Promise<bigint> {
      const s = await settings.get()
      // Refused before the stages are walked: the walk grows with the cost.
      if (cost > (await ledger.available(payerId, 'usdt', q)))
        throw new AppError('insufficient_balance')
      const sold = hopeUnits(await repo.soldHope(q, true))
      const { hope: bought } = buyFromStages(sold, cost, stageParams(s))
      const mine = await ledger.userAccountIds(userId)
      const payer = payerId === userId ? mine : await ledger.userAccountIds(payerId)
      await ledger.apply(
        key,
        content,
        [
          {
            kind: 'posted',
            debit: payer.usdt,
            credit: await ledger.platformAccount('stage_sales', 'USDT', key),
            amount: formatUsdt(cost),
            logType: LOG_TYPE.upgradePurchase,
          },
          {
            kind: 'posted',
            debit: await ledger.platformAccount('hope_supply', 'HOPE', key),
            credit: mine.split,
            amount: formatHope(bought),
            logType: LOG_TYPE.upgradePurchase,
          },
        ],
        q,
      )
      await repo.addSold(q, formatHope(bought))
      await repo.addSplit(q, userId, formatHope(bought), s.settlementUtcOffsetMinutes)
      await teamAdd(q, userId, { community: formatUsdt(cost) })
      return bought
    },
  }
}

export type SaleService = ReturnType<typeof createSaleService>
