import type { Settings } from '../settings/settings.rules.ts'
import { LOG_TYPE } from '@hope/api'
import type { SettlementRun, SettlementRuns } from '@hope/api'
import type pg from 'pg'
import { withAdvisoryLock } from '../../db/advisory-lock.ts'
import { inTransaction } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import { formatHope, formatUsdt, hopeUnits, ppmUnits, usdtUnits } from '../../lib/units.ts'
import type { SqlLeg } from '../ledger/ledger.rules.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import { rewardedHolders } from '../nodes/nodes.service.ts'
import { nodeShares } from '../nodes/nodes.rules.ts'
import { linearRelease } from '../redemption/redemption.rules.ts'
import { releaseDuePledges } from '../redemption/redemption.service.ts'
import { hopeFor, usdtFor } from '../sale/sale.rules.ts'
import { releaseDueSplits, type SaleService } from '../sale/sale.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { releaseDuePositions } from '../staking/staking.service.ts'
import * as repo from './settlement.repository.ts'
import { isCalendarDay, lastSettleableDay } from './settlement.rules.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

const SETTLE_BATCH = 1_000
const SETTLE_LOCK: [number, number] = [LOCK_KEYS.settlement, 1]

/**
 * The settlement's transactions run past the connections' limits (5 s a statement, 2 s a lock
 * wait): a batch locks and pays SETTLE_BATCH rows, the rank rewards are worked out from the whole
 * day's releases, the node rewards from every holder; and a batch waiting for a row a user's
 * request holds should wait for it (that request is itself limited) rather than fail the run.
 */
async function allowSettlementTime(q: pg.PoolClient): Promise<void> {
  await q.query(`SET LOCAL statement_timeout = '2min'; SET LOCAL lock_timeout = '30s'`)
}

/**
 * The daily settlement (DESIGN §7): releases of positions, pledge items and split HOPE, rank
 * and node rewards, a batch per ledger request, each batch marking what it paid in the same
 * transaction.
 */
export function createSettlementService(deps: {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
  sale: SaleService
}) {
  const { pool, ledger, settings, sale } = deps

  /** What every step of one day's settlement shares. */
  interface SettlementDay {
    day: string
    run: number
    price: bigint
    s: Settings
    afterBatch: (() => void) | undefined
  }

  /** Runs `batch`, each in its own transaction, until one finds nothing left to do. */
  async function inBatches(c: SettlementDay, batch: (q: pg.PoolClient) => Promise<number>) {
    const limited = async (q: pg.PoolClient) => {
      await allowSettlementTime(q)
      return batch(q)
    }
    while (await inTransaction(pool, limited)) c.afterBatch?.()
  }

  /**
   * Step 1: every active position's release (log 7), consensus HOPE to the community account,
   * keyset over the ids: each batch starts after the last one, settled rows are not rescanned.
   */
  async function releasePositions(c: SettlementDay) {
    const consensus = {
      dailyRate: ppmUnits(c.s.consensusDailyRate),
      capMultiple: ppmUnits(c.s.consensusCapMultiple),
    }
    let after = '0'
    await inBatches(c, async (q) => {
      const rows = await releaseDuePositions(
        q,
        c.day,
        { limit: SETTLE_BATCH, after, utcOffsetMinutes: c.s.settlementUtcOffsetMinutes },
        c.price,
        consensus,
      )
      if (!rows.length) return 0
      after = rows.at(-1)!.id
      const ids: string[] = []
      const values: string[] = []
      const byUser = new Map<string, bigint>()
      const legs: SqlLeg[] = []
      let total = 0n
      for (const r of rows) {
        ids.push(r.id)
        values.push(formatUsdt(r.value))
        if (r.value > 0n) byUser.set(r.userId, (byUser.get(r.userId) ?? 0n) + r.value)
        if (r.hope > 0n) {
          total += r.hope
          legs.push({
            kind: 'posted',
            debit: await ledger.platformAccount('reward_pool', 'HOPE', r.id),
            credit: r.community,
            amount: formatHope(r.hope),
            logType: LOG_TYPE.consensusRightsReward,
            ref: `position:${r.id}`,
          })
        }
      }
      const key = `settle:${c.day}:consensus:${ids[0]}`
      if (legs.length) await ledger.apply(key, { ids, values }, legs, q)
      await repo.addUserValues(q, c.run, [...byUser.keys()], [...byUser.values()].map(formatUsdt))
      await repo.addRunProgress(q, c.run, {
        kind: 'consensus',
        positions: ids.length,
        hope: formatHope(total),
      })
      return ids.length
    })
  }

  /** Step 2: the rank rewards (log 11), worked out once from the day's releases, then paid. */
  async function payRankRewards(c: SettlementDay) {
    await inTransaction(pool, async (q) => {
      await allowSettlementTime(q)
      if (await repo.lockRankRewardsReady(q, c.run)) return
      await repo.insertRankRewards(q, c.run, c.s.rankThresholdsUsdt, c.s.rankRewardRates)
    })
    await inBatches(c, async (q) => {
      const rows = await repo.lockUnpaidRankRewards(q, c.run, SETTLE_BATCH)
      if (!rows.length) return 0
      const ids = rows.map((r) => r.userId)
      const legs: SqlLeg[] = []
      let total = 0n
      for (const r of rows) {
        const paidHope = hopeFor(usdtUnits(r.value), c.price)
        if (paidHope === 0n) continue
        total += paidHope
        legs.push({
          kind: 'posted',
          debit: await ledger.platformAccount('reward_pool', 'HOPE', r.userId),
          credit: r.community,
          amount: formatHope(paidHope),
          logType: LOG_TYPE.communityRightsReward,
        })
      }
      if (legs.length) await ledger.apply(`settle:${c.day}:rank:${ids[0]}`, { ids }, legs, q)
      await repo.markRankRewardsPaid(q, c.run, ids)
      await repo.addRunProgress(q, c.run, { kind: 'rank', hope: formatHope(total) })
      return ids.length
    })
  }

  /** Step 3: every open pledge item's release (log 3). */
  async function releasePledges(c: SettlementDay) {
    const pledgeRate = ppmUnits(c.s.pledgeDailyRate)
    let after = '0'
    await inBatches(c, async (q) => {
      const rows = await releaseDuePledges(
        q,
        c.day,
        { limit: SETTLE_BATCH, after, utcOffsetMinutes: c.s.settlementUtcOffsetMinutes },
        pledgeRate,
      )
      if (!rows.length) return 0
      after = rows.at(-1)!.id
      const ids: string[] = []
      const amounts: string[] = []
      const legs: SqlLeg[] = []
      let total = 0n
      for (const r of rows) {
        ids.push(r.id)
        amounts.push(formatHope(r.amount))
        if (r.amount > 0n) {
          total += r.amount
          legs.push({
            kind: 'posted',
            debit: await ledger.platformAccount('stake_pool', 'HOPE', r.id),
            credit: r.community,
            amount: formatHope(r.amount),
            logType: LOG_TYPE.pledgeExchange,
            ref: `pledge:${r.id}`,
          })
        }
      }
      if (legs.length)
        await ledger.apply(`settle:${c.day}:pledge:${ids[0]}`, { ids, amounts }, legs, q)
      await repo.addRunProgress(q, c.run, {
        kind: 'pledge',
        pledges: ids.length,
        hope: formatHope(total),
      })
      return ids.length
    })
  }

  /** Step 4: split HOPE (log 4), the daily rate of what was bought by the end of the day. */
  async function releaseSplits(c: SettlementDay) {
    const splitRate = ppmUnits(c.s.splitDailyRate)
    let after = '0'
    await inBatches(c, async (q) => {
      const rows = await releaseDueSplits(
        q,
        c.day,
        { limit: SETTLE_BATCH, after },
        (total, released) => linearRelease(total, released, splitRate).amount,
      )
      if (!rows.length) return 0
      after = rows.at(-1)!.userId
      const ids: string[] = []
      const amounts: string[] = []
      const legs: SqlLeg[] = []
      let total = 0n
      for (const r of rows) {
        ids.push(r.userId)
        amounts.push(formatHope(r.amount))
        if (r.amount > 0n) {
          total += r.amount
          legs.push({
            kind: 'posted',
            debit: r.split,
            credit: r.community,
            amount: formatHope(r.amount),
            logType: LOG_TYPE.splitReward,
          })
        }
      }
      if (legs.length)
        await ledger.apply(`settle:${c.day}:split:${ids[0]}`, { ids, amounts }, legs, q)
      await repo.addRunProgress(q, c.run, {
        kind: 'split',
        splits: ids.length,
        hope: formatHope(total),
      })
      return ids.length
    })
  }

  /** Step 5: the node rewards (log 10), shares of the day's consensus HOPE at the price. */
  async function payNodeRewards(c: SettlementDay) {
    await inTransaction(pool, async (q) => {
      await allowSettlementTime(q)
      const key = `settle:${c.day}:nodes`
      if ((await ledger.movedUnder(key, q)).length) return
      const totals = await repo.runById(q, c.run)
      const allocated = usdtFor(hopeUnits(totals!.consensusHope), c.price)
      const holders = await rewardedHolders(q)
      const accountOf = new Map(holders.map((h) => [`${h.userId}:${h.type}`, h.account]))
      const shares = nodeShares(
        allocated,
        holders.map((h) => ({ userId: h.userId, type: h.type })),
        c.s.nodeRewardRates.map(ppmUnits) as [bigint, bigint, bigint],
      )
      if (!shares.length) return
      const legs: SqlLeg[] = []
      for (const x of shares)
        legs.push({
          kind: 'posted',
          debit: await ledger.platformAccount('reward_pool', 'USDT', `${x.userId}`),
          credit: accountOf.get(`${x.userId}:${x.type}`)!,
          amount: formatUsdt(x.value),
          logType: LOG_TYPE.nodeReward,
        })
      await ledger.apply(key, { day: c.day }, legs, q)
      const paidOut = shares.reduce((t, x) => t + x.value, 0n)
      await repo.setRunNodeUsdt(q, c.run, formatUsdt(paidOut))
    })
  }

  /**
   * The settlement of `day`: every active position's release (log 7), the rank rewards on
   * them (log 11), every open pledge item's release (log 3), split HOPE (log 4) and the node
   * rewards (log 10), one step after the other. Re-running the day, or resuming it after a
   * crash, pays only what is still unpaid. Robots' positions are passed over.
   */
  async function settle(
    day: string,
    hooks: { afterBatch?: (n: number) => void } = {},
  ): Promise<SettlementRun> {
    if (!isCalendarDay(day)) throw new AppError('invalid_params', { detail: 'day' })
    const result = await withAdvisoryLock(pool, SETTLE_LOCK, async (lockConn) => {
      const run = await repo.openRun(lockConn, day)
      let batches = 0
      const c: SettlementDay = {
        day,
        run: run.id,
        price: await sale.currentPrice(lockConn),
        s: await settings.get(),
        afterBatch: hooks.afterBatch ? () => hooks.afterBatch!(++batches) : undefined,
      }
      await releasePositions(c)
      await payRankRewards(c)
      await releasePledges(c)
      await releaseSplits(c)
      await payNodeRewards(c)
      return repo.finishRun(lockConn, run.id)
    })
    if (!result) throw new AppError('already_resolved', { detail: 'a settlement is running' })
    return result
  }

  return {
    settle,

    /** `admin/settle`: an operator's run, of a day no later than tomorrow (local). */
    async settleByOperator(day: string): Promise<SettlementRun> {
      const { settlementUtcOffsetMinutes } = await settings.get()
      if (isCalendarDay(day) && day > lastSettleableDay(Date.now(), settlementUtcOffsetMinutes))
        throw new AppError('invalid_params', { detail: 'day' })
      return settle(day)
    },

    async runs(page: { pageNum: number; pageSize: number }): Promise<SettlementRuns> {
      const [runs, s] = await Promise.all([repo.listRuns(pool, page), settings.get()])
      return { ...runs, ...page, utcOffsetMinutes: s.settlementUtcOffsetMinutes }
    },

    async run(id: number): Promise<SettlementRun> {
      const run = await repo.runById(pool, id)
      if (!run) throw new AppError('not_found')
      return run
    },
  }
}

export type SettlementService = ReturnType<typeof createSettlementService>
