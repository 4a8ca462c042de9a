import { LOG_TYPE } from '@hope/api'
import type { StakeResult, GameInfo, Page, StakePosition } from '@hope/api'
import type pg from 'pg'
import type { Queryable } from '../../db/transaction.ts'
import { assertAmountWithinBound } from '../../lib/amount-bound.ts'
import { AppError } from '../../lib/app-error.ts'
import { formatHope, formatUsdt, hopeUnits, PPM, ppmUnits, usdtUnits } from '../../lib/units.ts'
import type { SqlLeg } from '../ledger/ledger.rules.ts'
import { replayedRequest, type LedgerService } from '../ledger/ledger.service.ts'
import { hopeFor, priceAt, stageOf, stageParams, stagePrice } from '../sale/sale.rules.ts'
import { addSold, buyFromStages, inPurchaseTurn, soldHope } from '../sale/sale.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { teamAdd, uplines } from '../team/team.service.ts'
import { communityRewards } from '../team/team.rules.ts'
import { consensusRelease, type ConsensusParams } from './staking.rules.ts'
import * as repo from './staking.repository.ts'

/** One position's part of a day's consensus release: its USDT value and the HOPE paid for it. */
export interface PositionRelease {
  id: string
  userId: string
  /** the owner's community account, where the HOPE goes */
  community: number
  value: bigint
  hope: bigint
}

/**
 * Releases the next batch of positions due on `day` (opened before it ended, local time
 * `utcOffsetMinutes`; ids after `after`), in the caller's transaction: each one's consensus
 * release at `price` is added to it and it is settled through `day`, out once at its cap; a
 * robot's position is settled with nothing released. Returns what each released, for the caller
 * to pay; empty when none is left.
 *
 * @example
 * const released = await releaseDuePositions(q, '2026-12-07', { limit: 500, after: '0', utcOffsetMinutes: 480 }, price, consensus)
 */
export async function releaseDuePositions(
  q: Queryable,
  day: string,
  batch: { limit: number; after: string; utcOffsetMinutes: number },
  price: bigint,
  consensus: ConsensusParams,
): Promise<PositionRelease[]> {
  const rows = await repo.lockDuePositions(q, day, batch.limit, batch.after, batch.utcOffsetMinutes)
  const released = rows.map((r) => {
    const rel = r.isRobot
      ? { value: 0n, hope: 0n, out: false }
      : consensusRelease(
          { principal: usdtUnits(r.principal), released: usdtUnits(r.released) },
          price,
          consensus,
        )
    return { id: r.id, userId: r.userId, community: r.community, ...rel }
  })
  if (rows.length)
    await repo.markPositionsReleased(
      q,
      day,
      released.map((r) => r.id),
      released.map((r) => formatUsdt(r.value)),
      released.map((r) => r.out),
    )
  return released.map(({ out: _out, ...r }) => r)
}

/**
 * Consensus entries and the positions they open (DESIGN §7). Each entry is one ledger request
 * in the same transaction as the position it creates.
 */
export function createStakingService(deps: {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
}) {
  const { pool, ledger, settings } = deps
  return {
    /** The member's consensus positions in sum: USDT principal and value released so far. */
    summary: (userId: number) => repo.positionSummary(pool, userId),

    /** The sale stage, the staking settings and the member's positions in sum. */
    async info(userId: number): Promise<GameInfo> {
      const [s, sold, mine] = await Promise.all([
        settings.get(),
        soldHope(pool),
        repo.positionSummary(pool, userId),
      ])
      const p = stageParams(s)
      const stage = stageOf(hopeUnits(sold), p)
      return {
        stage: Number(stage),
        price: formatUsdt(stagePrice(stage, p)),
        stageSold: formatHope(hopeUnits(sold) - (stage - 1n) * p.size),
        stageSize: formatHope(p.size),
        nextPrice: formatUsdt(stagePrice(stage + 1n, p)),
        minEntry: s.stakeMinUsdt,
        entryStep: s.stakeStepUsdt,
        dailyRate: s.consensusDailyRate,
        capMultiple: s.consensusCapMultiple,
        redeemShare: s.redeemShare,
        redeemFeeRate: s.redeemFeeRate,
        pledgeDailyRate: s.pledgeDailyRate,
        mine: {
          principal: mine.principal,
          released: mine.released,
          activePositions: mine.active,
          outPositions: mine.out,
        },
      }
    },

    /**
     * Consensus entry: the USDT goes to stage sales, the HOPE it buys (split at stage
     * boundaries) from the supply into the stake pool as the user's position, and the
     * uplines' community rewards from the reward pool, all in one ledger request.
     */
    async enterConsensus(
      user: { id: number },
      params: { amount: string; idempotencyKey: string },
    ): Promise<StakeResult> {
      const s = await settings.get()
      const amount = usdtUnits(params.amount)
      assertAmountWithinBound(s, 'USDT', amount)
      const min = usdtUnits(s.stakeMinUsdt)
      const step = usdtUnits(s.stakeStepUsdt)
      if (amount < min || (step > 0n && amount % step !== 0n))
        throw new AppError('stake_amount_invalid', {
          detail: `${s.stakeMinUsdt} / ${s.stakeStepUsdt}`,
        })
      const key = `stake:${user.id}:${params.idempotencyKey}`

      return inPurchaseTurn(pool, async (q) => {
        const sold = hopeUnits(await soldHope(q, true))
        const content = { amount: formatUsdt(amount) }
        // The same key with another amount is refused (409), with the same one replayed.
        const before =
          (await replayedRequest(q, key, content)) && (await repo.positionByKey(q, key))
        if (before) return { position: before, fills: [], replayed: true }
        // Refused before the stages are walked: the walk grows with the amount.
        if (amount > (await ledger.available(user.id, 'usdt', q)))
          throw new AppError('insufficient_balance')
        const p = stageParams(s)
        const { hope: bought, fills } = buyFromStages(sold, amount, p)
        const price = priceAt(sold + bought, p)
        const rewards = communityRewards(amount, await uplines(q, user.id), {
          directRate: ppmUnits(s.directRewardRate),
          levelRates: [0n, ...s.levelRewardRates.map(ppmUnits)],
        })
        const mine = await ledger.userAccountIds(user.id)
        const legs: SqlLeg[] = [
          {
            kind: 'posted',
            debit: mine.usdt,
            credit: await ledger.platformAccount('stage_sales', 'USDT', key),
            amount: formatUsdt(amount),
            logType: LOG_TYPE.consensusEntry,
          },
          {
            kind: 'posted',
            debit: await ledger.platformAccount('hope_supply', 'HOPE', key),
            credit: await ledger.platformAccount('stake_pool', 'HOPE', key),
            amount: formatHope(bought),
            logType: LOG_TYPE.consensusEntry,
            ref: key,
          },
        ]
        for (const r of rewards) {
          const paid = hopeFor(r.value, price)
          if (paid === 0n) continue
          legs.push({
            kind: 'posted',
            debit: await ledger.platformAccount('reward_pool', 'HOPE', `${key}:${r.userId}`),
            credit: (await ledger.userAccountIds(r.userId)).community,
            amount: formatHope(paid),
            logType: LOG_TYPE.communityReward,
            ref: key,
          })
        }
        await ledger.apply(key, content, legs, q)
        await addSold(q, formatHope(bought))
        await teamAdd(q, user.id, { consensus: formatUsdt(amount) })
        const position = await repo.insertPosition(q, {
          userId: user.id,
          principal: formatUsdt(amount),
          hope: formatHope(bought),
          price: formatUsdt(fills[0]!.price),
          cap: formatUsdt((amount * ppmUnits(s.consensusCapMultiple)) / PPM),
          key,
        })
        return {
          position,
          fills: fills.map((f) => ({
            stage: Number(f.stage),
            price: formatUsdt(f.price),
            hope: formatHope(f.hope),
            usdt: formatUsdt(f.usdt),
          })),
          replayed: false,
        }
      })
    },

    async positions(
      userId: number,
      page: { pageNum: number; pageSize: number },
    ): Promise<Page<StakePosition>> {
      return { ...(await repo.positionsOf(pool, userId, page)), ...page }
    },
  }
}

export type StakingService = ReturnType<typeof createStakingService>
