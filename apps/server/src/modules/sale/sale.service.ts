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
 * What other modules may do with the token sale in their own transaction: read and add to the
 * HOPE sold, read a member's split account figures; settlement releases the split grants.
 */
export {
  addSold,
  lockDueSplits,
  markSplitsReleased,
  soldHope,
  splitOf,
  type DueSplit,
} from './sale.repository.ts'

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
