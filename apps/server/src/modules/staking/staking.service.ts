import { LOG_TYPE } from '@hope/api'
import type { StakeResult, GameInfo, Page, StakePosition } from '@hope/api'
import type pg from 'pg'
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
import * as repo from './staking.repository.ts'

/**
 * What settlement does with the stake positions, in its own transaction: takes the next batch
 * due on a day, locked, and adds each one's release.
 */
export { lockDuePositions, markPositionsReleased, type DuePosition } from './staking.repository.ts'

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
