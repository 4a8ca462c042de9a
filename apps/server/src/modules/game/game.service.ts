import {
  formatAmount,
  parseAmount,
  trimDecimal,
  type ChangeResult,
  type DirectMember,
  type Earnings,
  type MemberFlags,
  type GameInfo,
  type PurchaseResult,
  type TeamStats,
  type VipInfo,
  type Page,
  type PledgeItem,
  type SettlementRun,
  type SqChangeResult,
  type StakePosition,
} from '@hope/api'
import type pg from 'pg'
import { withAdvisoryLock } from '../../db/advisory-lock.ts'
import { assertAmountWithinBound } from '../../lib/amount-bound.ts'
import { AppError } from '../../lib/app-error.ts'
import type { SqlLeg } from '../ledger/ledger.repository.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import type { Settings } from '../settings/settings.rules.ts'
import * as repo from './game.repository.ts'
import { insertAudit } from '../operator/operator.repository.ts'
import {
  PPM,
  settlementDayDue,
  buyAcrossStages,
  communityRewards,
  consensusRelease,
  hopeFor,
  isCalendarDay,
  lastSettleableDay,
  linearRelease,
  nodeShares,
  priceAt,
  rankOf,
  rankPerformance,
  redemption,
  upgradeCost,
  usdtFor,
  stageOf,
  stagePrice,
  StageLimitError,
  type StageParams,
} from './game.rules.ts'

const usdt = (v: string) => parseAmount(trimDecimal(v), 6)!
const hope = (v: string) => parseAmount(trimDecimal(v), 18)!
const ppm = (v: string) => parseAmount(trimDecimal(v), 6)! // a rate's 6 decimals are ppm
const fmtUsdt = (u: bigint) => formatAmount(u, 6)
const fmtHope = (u: bigint) => formatAmount(u, 18)

const SETTLE_BATCH = 1_000
const SETTLE_LOCK: [number, number] = [7_001_002, 1]

export const stageParams = (s: Settings): StageParams => ({
  firstPrice: usdt(s.hopeStage1PriceUsdt),
  step: usdt(s.hopeStageStepUsdt),
  size: hope(s.hopeStageSizeHope),
})

/** `buyAcrossStages`, with a purchase past the stage limit refused as too large. */
function buyFromStages(sold: bigint, cost: bigint, p: StageParams) {
  try {
    return buyAcrossStages(sold, cost, p)
  } catch (e) {
    if (e instanceof StageLimitError) throw new AppError('amount_too_large', { cause: e })
    throw e
  }
}

/**
 * Consensus entry, redemption, pledge items and the daily settlement (DESIGN §6–§7). Each
 * money movement is one ledger request in the same transaction as the row it creates.
 */
export function createGameService(deps: {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
}) {
  const { pool, ledger, settings } = deps

  async function inTransaction<T>(work: (q: pg.PoolClient) => Promise<T>): Promise<T> {
    const q = await pool.connect()
    try {
      await q.query('BEGIN')
      const result = await work(q)
      await q.query('COMMIT')
      return result
    } catch (e) {
      await q.query('ROLLBACK').catch(() => {})
      throw e
    } finally {
      q.release()
    }
  }

  async function memberId(q: pg.PoolClient, userName: string): Promise<number> {
    const res = await q.query<{ id: string }>(
      'SELECT id::text FROM users WHERE user_name = $1 FOR UPDATE',
      [userName.toLowerCase()],
    )
    if (!res.rows[0]) throw new AppError('not_registered')
    return Number(res.rows[0].id)
  }

  async function memberFlags(q: pg.PoolClient, id: number): Promise<MemberFlags> {
    const res = await q.query<{ user_name: string; is_robot: boolean }>(
      'SELECT user_name, is_robot FROM users WHERE id = $1',
      [id],
    )
    return {
      userName: res.rows[0]!.user_name,
      isRobot: res.rows[0]!.is_robot,
      nodes: await repo.nodesOf(q, id),
    }
  }

  async function currentPrice(q: Pick<pg.Pool, 'query'> = pool): Promise<bigint> {
    return priceAt(hope(await repo.soldHope(q)), stageParams(await settings.get()))
  }

  /**
   * A purchase (upgrade, node): the USDT goes to stage sales and buys HOPE from the current
   * stage on into the buyer's split account; counts as community performance upline.
   */
  async function purchase(
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
    const sold = hope(await repo.soldHope(q, true))
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
          amount: fmtUsdt(cost),
          logType: 15,
        },
        {
          kind: 'posted',
          debit: await ledger.platformAccount('hope_supply', 'HOPE', key),
          credit: mine.split,
          amount: fmtHope(bought),
          logType: 15,
        },
      ],
      q,
    )
    await repo.addSold(q, fmtHope(bought))
    await repo.addSplit(q, userId, fmtHope(bought), s.settlementUtcOffsetMinutes)
    await repo.teamAdd(q, userId, { community: fmtUsdt(cost) })
    return bought
  }

  return {
    /** Real-time HOPE price in USDT: the current stage price. */
    async hopePrice(): Promise<string> {
      return fmtUsdt(await currentPrice())
    },

    async info(userId: number): Promise<GameInfo> {
      const [s, sold, mine] = await Promise.all([
        settings.get(),
        repo.soldHope(pool),
        repo.positionSummary(pool, userId),
      ])
      const p = stageParams(s)
      const stage = stageOf(hope(sold), p)
      return {
        stage: Number(stage),
        price: fmtUsdt(stagePrice(stage, p)),
        stageSold: fmtHope(hope(sold) - (stage - 1n) * p.size),
        stageSize: fmtHope(p.size),
        nextPrice: fmtUsdt(stagePrice(stage + 1n, p)),
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
    async change(
      user: { id: number },
      params: { amount: string; idempotencyKey: string },
    ): Promise<ChangeResult> {
      const s = await settings.get()
      const amount = usdt(params.amount)
      assertAmountWithinBound(s, 'USDT', amount)
      const min = usdt(s.stakeMinUsdt)
      const step = usdt(s.stakeStepUsdt)
      if (amount < min || (step > 0n && amount % step !== 0n))
        throw new AppError('stake_amount_invalid', {
          detail: `${s.stakeMinUsdt} / ${s.stakeStepUsdt}`,
        })
      const key = `stake:${user.id}:${params.idempotencyKey}`

      return inTransaction(async (q) => {
        const sold = hope(await repo.soldHope(q, true))
        const before = await repo.positionByKey(q, key)
        if (before) return { position: before, fills: [], replayed: true }
        // Refused before the stages are walked: the walk grows with the amount.
        if (amount > (await ledger.available(user.id, 'usdt', q)))
          throw new AppError('insufficient_balance')
        const p = stageParams(s)
        const { hope: bought, fills } = buyFromStages(sold, amount, p)
        const price = priceAt(sold + bought, p)
        const rewards = communityRewards(amount, await repo.uplines(q, user.id), {
          directRate: ppm(s.directRewardRate),
          levelRates: [0n, ...s.levelRewardRates.map(ppm)],
        })
        const mine = await ledger.userAccountIds(user.id)
        const legs: SqlLeg[] = [
          {
            kind: 'posted',
            debit: mine.usdt,
            credit: await ledger.platformAccount('stage_sales', 'USDT', key),
            amount: fmtUsdt(amount),
            logType: 16,
          },
          {
            kind: 'posted',
            debit: await ledger.platformAccount('hope_supply', 'HOPE', key),
            credit: await ledger.platformAccount('stake_pool', 'HOPE', key),
            amount: fmtHope(bought),
            logType: 16,
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
            amount: fmtHope(paid),
            logType: 8,
            ref: key,
          })
        }
        await ledger.apply(key, { amount: fmtUsdt(amount) }, legs, q)
        await repo.addSold(q, fmtHope(bought))
        await repo.teamAdd(q, user.id, { consensus: fmtUsdt(amount) })
        const position = await repo.insertPosition(q, {
          userId: user.id,
          principal: fmtUsdt(amount),
          hope: fmtHope(bought),
          price: fmtUsdt(fills[0]!.price),
          cap: fmtUsdt((amount * ppm(s.consensusCapMultiple)) / PPM),
          key,
        })
        return {
          position,
          fills: fills.map((f) => ({
            stage: Number(f.stage),
            price: fmtUsdt(f.price),
            hope: fmtHope(f.hope),
            usdt: fmtUsdt(f.usdt),
          })),
          replayed: false,
        }
      })
    },

    /**
     * Redemption of community HOPE at the real-time price: the redeemed share returns to the
     * supply and its USDT (less the fee) goes to the USDT account; the rest is pledged.
     */
    async sqChange(
      user: { id: number },
      params: { amount: string; idempotencyKey: string },
    ): Promise<SqChangeResult> {
      const s = await settings.get()
      const amount = hope(params.amount)
      assertAmountWithinBound(s, 'HOPE', amount)
      const key = `redeem:${user.id}:${params.idempotencyKey}`
      return inTransaction(async (q) => {
        const price = await currentPrice(q)
        const r = redemption(amount, price, {
          redeemShare: ppm(s.redeemShare),
          feeRate: ppm(s.redeemFeeRate),
        })
        const existing = await repo.pledgeByKey(q, key)
        const mine = await ledger.userAccountIds(user.id)
        const legs: SqlLeg[] = []
        const add = (leg: SqlLeg & { amount: string }, units: bigint) => {
          if (units > 0n) legs.push(leg)
        }
        add(
          {
            kind: 'posted',
            debit: mine.community,
            credit: await ledger.platformAccount('hope_supply', 'HOPE', key),
            amount: fmtHope(r.redeemed),
            logType: 2,
          },
          r.redeemed,
        )
        add(
          {
            kind: 'posted',
            debit: await ledger.platformAccount('redemption_pool', 'USDT', key),
            credit: mine.usdt,
            amount: fmtUsdt(r.gross),
            logType: 2,
          },
          r.gross,
        )
        add(
          {
            kind: 'posted',
            debit: mine.usdt,
            credit: await ledger.platformAccount('fees', 'USDT', key),
            amount: fmtUsdt(r.fee),
            logType: 14,
          },
          r.fee,
        )
        add(
          {
            kind: 'posted',
            debit: mine.community,
            credit: await ledger.platformAccount('stake_pool', 'HOPE', key),
            amount: fmtHope(r.pledged),
            logType: 3,
            ref: key,
          },
          r.pledged,
        )
        if (!legs.length) throw new AppError('redeem_amount_invalid')
        const outcome = await ledger.apply(key, { amount: fmtHope(amount) }, legs, q)
        const row =
          existing ??
          (await repo.insertPledge(q, { userId: user.id, amount: fmtHope(r.pledged), key }))
        return {
          redeemed: fmtHope(r.redeemed),
          pledged: fmtHope(r.pledged),
          price: fmtUsdt(price),
          gross: fmtUsdt(r.gross),
          fee: fmtUsdt(r.fee),
          net: fmtUsdt(r.net),
          pledge: repo.toPledge(row, s.pledgeDailyRate),
          replayed: outcome.replayed,
        }
      })
    },

    /** Membership upgrade: pays only the difference; the HOPE it buys goes to the split account. */
    async upgrade(
      user: { id: number },
      params: { level: number; idempotencyKey: string },
    ): Promise<PurchaseResult> {
      const key = `upgrade:${user.id}:${params.idempotencyKey}`
      return inTransaction(async (q) => {
        const level = await repo.lockUserLevel(q, user.id)
        const moved = await repo.movedUnder(q, key)
        if (moved.length)
          return { paid: moved[0]!, hope: moved[1] ?? '0', level, nodes: [], replayed: true }
        if (params.level <= level) throw new AppError('not_an_upgrade')
        const s = await settings.get()
        const prices = [0n, ...s.levelPricesUsdt.map(usdt)]
        const cost = upgradeCost(prices, level, params.level)
        const hopeBought = await purchase(q, user.id, key, cost, { level: params.level })
        await q.query('UPDATE users SET level = $2 WHERE id = $1', [user.id, params.level])
        return {
          paid: fmtUsdt(cost),
          hope: fmtHope(hopeBought),
          level: params.level,
          nodes: [],
          replayed: false,
        }
      })
    },

    /**
     * Activation of a downline member: the payer pays the member's upgrade to `level` (only the
     * difference), the HOPE goes to the member's split account; a partition given moves the
     * member while they have no team and no level yet.
     */
    async activate(
      payer: { id: number },
      params: {
        address: string
        level: number
        location?: number | undefined
        idempotencyKey: string
      },
    ): Promise<PurchaseResult> {
      const key = `activate:${payer.id}:${params.idempotencyKey}`
      const member = await pool.query<{ id: string; ancestor_ids: string[] }>(
        'SELECT id::text, ancestor_ids::text[] FROM users WHERE user_name = $1',
        [params.address.toLowerCase()],
      )
      const row = member.rows[0]
      if (!row) throw new AppError('not_registered')
      const memberId = Number(row.id)
      if (!row.ancestor_ids.map(Number).includes(payer.id)) throw new AppError('not_downline')
      return inTransaction(async (q) => {
        const level = await repo.lockUserLevel(q, memberId)
        const moved = await repo.movedUnder(q, key)
        if (moved.length)
          return { paid: moved[0]!, hope: moved[1] ?? '0', level, nodes: [], replayed: true }
        if (params.level <= level) throw new AppError('not_an_upgrade')
        if (params.location) {
          const loc = await q.query<{ location: number; team: string; positions: string }>(
            `SELECT u.location,
                    (SELECT coalesce(sum(people), 0) FROM team_stats WHERE user_id = u.id)::text AS team,
                    (SELECT count(*) FROM stake_positions WHERE user_id = u.id)::text AS positions
               FROM users u WHERE u.id = $1`,
            [memberId],
          )
          const r = loc.rows[0]!
          if (r.location !== params.location) {
            if (level > 0 || r.team !== '0' || r.positions !== '0')
              throw new AppError('placement_locked')
            await repo.teamAdd(q, memberId, { people: -1 })
            await q.query('UPDATE users SET location = $2 WHERE id = $1', [
              memberId,
              params.location,
            ])
            await repo.teamAdd(q, memberId, { people: 1 })
          }
        }
        const s = await settings.get()
        const cost = upgradeCost([0n, ...s.levelPricesUsdt.map(usdt)], level, params.level)
        const hopeBought = await purchase(
          q,
          memberId,
          key,
          cost,
          {
            member: memberId,
            level: params.level,
          },
          payer.id,
        )
        await q.query('UPDATE users SET level = $2 WHERE id = $1', [memberId, params.level])
        return {
          paid: fmtUsdt(cost),
          hope: fmtHope(hopeBought),
          level: params.level,
          nodes: [],
          replayed: false,
        }
      })
    },

    /** Node activation for its price; like any purchase it buys HOPE into the split account. */
    async buyNode(
      user: { id: number },
      params: { type: number; idempotencyKey: string },
    ): Promise<PurchaseResult> {
      const key = `node:${user.id}:${params.idempotencyKey}`
      return inTransaction(async (q) => {
        const level = await repo.lockUserLevel(q, user.id)
        const moved = await repo.movedUnder(q, key)
        const nodes = async () => (await repo.nodesOf(q, user.id)).map((n) => n.type)
        if (moved.length)
          return {
            paid: moved[0]!,
            hope: moved[1] ?? '0',
            level,
            nodes: await nodes(),
            replayed: true,
          }
        if ((await nodes()).includes(params.type as 1 | 2 | 3)) throw new AppError('node_owned')
        const s = await settings.get()
        const price = usdt(s.nodePricesUsdt[params.type - 1]!)
        const hopeBought = await purchase(q, user.id, key, price, { node: params.type })
        await q.query(
          `INSERT INTO node_holders (user_id, type, source) VALUES ($1, $2, 'bought')`,
          [user.id, params.type],
        )
        return {
          paid: fmtUsdt(price),
          hope: fmtHope(hopeBought),
          level,
          nodes: await nodes(),
          replayed: false,
        }
      })
    },

    async vipInfo(userId: number): Promise<VipInfo> {
      const [s, level, nodes, split] = await Promise.all([
        settings.get(),
        pool.query<{ level: number }>('SELECT level FROM users WHERE id = $1', [userId]),
        repo.nodesOf(pool, userId),
        repo.splitOf(pool, userId),
      ])
      return {
        level: level.rows[0]?.level ?? 0,
        levelPrices: s.levelPricesUsdt,
        nodes,
        nodePrices: s.nodePricesUsdt,
        nodeRewardRates: s.nodeRewardRates,
        split,
        splitDailyRate: s.splitDailyRate,
        applicationEmail: s.shareholderApplicationEmail,
      }
    },

    async groupTj(userId: number): Promise<TeamStats> {
      const [s, partitions, direct] = await Promise.all([
        settings.get(),
        repo.teamStats(pool, userId),
        repo.directCount(pool, userId),
      ])
      const sum = (f: (p: (typeof partitions)[number]) => string, d: number) =>
        formatAmount(
          partitions.reduce((t, p) => t + parseAmount(f(p), d)!, 0n),
          d,
        )
      return {
        people: partitions.reduce((t, p) => t + p.people, 0),
        directPeople: direct,
        consensus: sum((p) => p.consensus, 18),
        community: sum((p) => p.community, 18),
        partitions,
        rank: rankOf(
          partitions.map((p) => usdt(p.consensus)),
          s.rankThresholdsUsdt.map(usdt),
        ),
        rankPerformance: fmtUsdt(rankPerformance(partitions.map((p) => usdt(p.consensus)))),
        rankThresholds: s.rankThresholdsUsdt,
      }
    },

    /** Rewards received by log type: in all, and since the current settlement day began. */
    async earnings(userId: number, now = new Date()): Promise<Earnings> {
      const s = await settings.get()
      const offset = s.settlementUtcOffsetMinutes * 60_000
      const day = new Date(now.getTime() + offset).toISOString().slice(0, 10)
      const since = new Date(Date.parse(`${day}T00:00:00Z`) - offset)
      const rows = await repo.earningsOf(pool, userId, since)
      const decimals = { USDT: 6, HOPE: 18 } as const
      const items = repo.EARNING_LOG_TYPES.map((logType) => {
        const currency: 'USDT' | 'HOPE' = logType === 10 ? 'USDT' : 'HOPE'
        const row = rows.find((r) => r.logType === logType && r.currency === currency)
        const units = (v: string | undefined) =>
          formatAmount(parseAmount(trimDecimal(v ?? '0'), decimals[currency])!, decimals[currency])
        return { logType, currency, total: units(row?.total), today: units(row?.today) }
      })
      return { day, items }
    },

    async groupZt(
      userId: number,
      page: { pageNum: number; pageSize: number },
    ): Promise<Page<DirectMember>> {
      return { ...(await repo.directMembers(pool, userId, page)), ...page }
    },

    async myStake(
      userId: number,
      page: { pageNum: number; pageSize: number },
    ): Promise<Page<StakePosition>> {
      return { ...(await repo.positionsOf(pool, userId, page)), ...page }
    },

    async stakeList(
      userId: number,
      page: { pageNum: number; pageSize: number },
    ): Promise<Page<PledgeItem>> {
      const s = await settings.get()
      const { list, total } = await repo.pledgesOf(pool, userId, page)
      return { list: list.map((r) => repo.toPledge(r, s.pledgeDailyRate)), total, ...page }
    },

    /** The scheduled settlement: runs the due day once it is due and not yet done. */
    async settleDue(now = Date.now()): Promise<{ settled: number }> {
      const s = await settings.get()
      const day = settlementDayDue(now, s.settlementUtcOffsetMinutes, s.settlementTime)
      const done = await pool.query(
        `SELECT 1 FROM settlement_runs WHERE day = $1 AND status = 'done'`,
        [day],
      )
      if (done.rowCount) return { settled: 0 }
      const run = await this.settle(day).catch((e: unknown) => {
        if (e instanceof AppError && e.reason === 'already_resolved') return null
        throw e
      })
      return { settled: run?.positions ?? 0 }
    },

    /** An operator grants a shareholder tier (rewards go to the shareholder account). */
    async grantShareholder(
      operatorId: number,
      params: { userName: string; type: number; reason: string },
    ): Promise<MemberFlags> {
      return inTransaction(async (q) => {
        const id = await memberId(q, params.userName)
        const before = await memberFlags(q, id)
        await q.query(
          `INSERT INTO node_holders (user_id, type, source) VALUES ($1, $2, 'granted')
           ON CONFLICT (user_id, type) DO UPDATE SET source = 'granted'`,
          [id, params.type],
        )
        const after = await memberFlags(q, id)
        await insertAudit(q, {
          operatorId,
          action: 'grant_shareholder',
          targetUserId: id,
          reason: params.reason,
          before,
          after,
        })
        return after
      })
    },

    /** An operator flags or unflags a robot account. */
    async flagRobot(
      operatorId: number,
      params: { userName: string; robot: boolean; reason: string },
    ): Promise<MemberFlags> {
      return inTransaction(async (q) => {
        const id = await memberId(q, params.userName)
        const before = await memberFlags(q, id)
        await q.query('UPDATE users SET is_robot = $2 WHERE id = $1', [id, params.robot])
        const after = await memberFlags(q, id)
        await insertAudit(q, {
          operatorId,
          action: params.robot ? 'flag_robot' : 'unflag_robot',
          targetUserId: id,
          reason: params.reason,
          before,
          after,
        })
        return after
      })
    },

    async settlementRuns(page: {
      pageNum: number
      pageSize: number
    }): Promise<Page<SettlementRun>> {
      return { ...(await repo.listRuns(pool, page)), ...page }
    },

    async settlementRun(id: number): Promise<SettlementRun> {
      const run = await repo.runById(pool, id)
      if (!run) throw new AppError('not_found')
      return run
    },

    /**
     * The daily settlement of `day`: every active position's release (log 7) and every open
     * pledge item's release (log 3), a batch per ledger request, each batch marking what it
     * paid in the same transaction. Re-running the day, or resuming it after a crash, pays
     * only what is still unpaid. Robots' positions are passed over.
     */
    /** `admin/settle`: an operator's run, of a day no later than tomorrow (local). */
    async settleByOperator(day: string): Promise<SettlementRun> {
      const { settlementUtcOffsetMinutes } = await settings.get()
      if (isCalendarDay(day) && day > lastSettleableDay(Date.now(), settlementUtcOffsetMinutes))
        throw new AppError('invalid_params', { detail: 'day' })
      return this.settle(day)
    },

    async settle(
      day: string,
      hooks: { afterBatch?: (n: number) => void } = {},
    ): Promise<SettlementRun> {
      if (!isCalendarDay(day)) throw new AppError('invalid_params', { detail: 'day' })
      const result = await withAdvisoryLock(pool, SETTLE_LOCK, async (lockConn) => {
        const run = await repo.openRun(lockConn, day)
        const s = await settings.get()
        const price = await currentPrice(lockConn)
        const consensus = {
          dailyRate: ppm(s.consensusDailyRate),
          capMultiple: ppm(s.consensusCapMultiple),
        }
        const pledgeRate = ppm(s.pledgeDailyRate)
        let batches = 0
        // keyset over the ids: each batch starts after the last one, settled rows are not rescanned
        let after = '0'
        for (;;) {
          const paid = await inTransaction(async (q) => {
            const rows = await q.query<{
              id: string
              user_id: string
              principal: string
              released: string
              community: string
              is_robot: boolean
            }>(
              `SELECT p.id::text, p.user_id::text, p.principal::text, p.released::text, a.id::text AS community, u.is_robot
                 FROM stake_positions p
                 JOIN users u ON u.id = p.user_id
                 JOIN ledger_accounts a ON a.user_id = p.user_id AND a.kind = 'community'
                WHERE p.status = 'active' AND (p.settled_through IS NULL OR p.settled_through < $1::date)
                  AND p.created_at < (($1::date + 1)::timestamp - make_interval(mins => $4)) AT TIME ZONE 'UTC'
                  AND p.id > $3
                ORDER BY p.id LIMIT $2 FOR UPDATE OF p SKIP LOCKED`,
              [day, SETTLE_BATCH, after, s.settlementUtcOffsetMinutes],
            )
            if (!rows.rows.length) return 0
            after = rows.rows.at(-1)!.id
            const ids: string[] = []
            const values: string[] = []
            const byUser = new Map<string, bigint>()
            const outs: boolean[] = []
            const legs: SqlLeg[] = []
            let total = 0n
            for (const r of rows.rows) {
              const rel = r.is_robot
                ? { value: 0n, hope: 0n, out: false }
                : consensusRelease(
                    { principal: usdt(r.principal), released: usdt(r.released) },
                    price,
                    consensus,
                  )
              ids.push(r.id)
              values.push(fmtUsdt(rel.value))
              outs.push(rel.out)
              if (rel.value > 0n) byUser.set(r.user_id, (byUser.get(r.user_id) ?? 0n) + rel.value)
              if (rel.hope > 0n) {
                total += rel.hope
                legs.push({
                  kind: 'posted',
                  debit: await ledger.platformAccount('reward_pool', 'HOPE', r.id),
                  credit: Number(r.community),
                  amount: fmtHope(rel.hope),
                  logType: 7,
                  ref: `position:${r.id}`,
                })
              }
            }
            const key = `settle:${day}:consensus:${ids[0]}`
            if (legs.length) await ledger.apply(key, { ids, values }, legs, q)
            await q.query(
              `UPDATE stake_positions p SET released = p.released + u.value,
                      status = CASE WHEN u.out THEN 'out' ELSE p.status END, settled_through = $1::date
                 FROM unnest($2::bigint[], $3::numeric[], $4::boolean[]) AS u (id, value, out)
                WHERE p.id = u.id`,
              [day, ids, values, outs],
            )
            await q.query(
              `INSERT INTO settlement_user_values (run_id, user_id, value)
               SELECT $1, u.id, u.value FROM unnest($2::bigint[], $3::numeric[]) AS u (id, value)
               ON CONFLICT (run_id, user_id) DO UPDATE SET value = settlement_user_values.value + excluded.value`,
              [run.id, [...byUser.keys()], [...byUser.values()].map(fmtUsdt)],
            )
            await q.query(
              'UPDATE settlement_runs SET positions = positions + $2, consensus_hope = consensus_hope + $3 WHERE id = $1',
              [run.id, ids.length, fmtHope(total)],
            )
            return ids.length
          })
          if (!paid) break
          hooks.afterBatch?.(++batches)
        }
        // Rank rewards (log 11): worked out once from the day's releases, then paid in batches.
        await inTransaction(async (q) => {
          const ready = await q.query<{ ready: boolean }>(
            'SELECT rank_rewards_ready AS ready FROM settlement_runs WHERE id = $1 FOR UPDATE',
            [run.id],
          )
          if (ready.rows[0]!.ready) return
          await q.query(
            `WITH team AS (
               SELECT t.user_id, sum(t.consensus) - max(t.consensus) AS counted
                 FROM team_stats t GROUP BY t.user_id),
             rates AS (
               SELECT team.user_id,
                      CASE WHEN u.is_robot THEN 0 ELSE coalesce(
                        (SELECT r.rate FROM unnest($2::numeric[], $3::numeric[]) WITH ORDINALITY AS r (threshold, rate, k)
                          WHERE team.counted >= r.threshold ORDER BY r.k DESC LIMIT 1), 0) END AS rate
                 FROM team JOIN users u ON u.id = team.user_id),
             shares AS (
               SELECT path.upline,
                      trunc(v.value * greatest(coalesce(r.rate, 0) - coalesce(max(coalesce(r.rate, 0)) OVER (
                        PARTITION BY v.user_id ORDER BY path.i DESC
                        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0), 0), 6) AS reward
                 FROM settlement_user_values v
                 JOIN users me ON me.id = v.user_id
                 CROSS JOIN LATERAL unnest(me.ancestor_ids) WITH ORDINALITY AS path (upline, i)
                 LEFT JOIN rates r ON r.user_id = path.upline
                WHERE v.run_id = $1)
             INSERT INTO settlement_rank_rewards (run_id, user_id, value)
             SELECT $1, upline, sum(reward) FROM shares WHERE reward > 0 GROUP BY upline`,
            [run.id, s.rankThresholdsUsdt, s.rankRewardRates],
          )
          await q.query('UPDATE settlement_runs SET rank_rewards_ready = true WHERE id = $1', [
            run.id,
          ])
        })
        for (;;) {
          const paid = await inTransaction(async (q) => {
            const rows = await q.query<{ user_id: string; value: string; community: string }>(
              `SELECT w.user_id::text, w.value::text, a.id::text AS community
                 FROM settlement_rank_rewards w
                 JOIN ledger_accounts a ON a.user_id = w.user_id AND a.kind = 'community'
                WHERE w.run_id = $1 AND NOT w.paid
                ORDER BY w.user_id LIMIT $2 FOR UPDATE OF w`,
              [run.id, SETTLE_BATCH],
            )
            if (!rows.rows.length) return 0
            const ids = rows.rows.map((r) => r.user_id)
            const legs: SqlLeg[] = []
            let total = 0n
            for (const r of rows.rows) {
              const paidHope = hopeFor(usdt(r.value), price)
              if (paidHope === 0n) continue
              total += paidHope
              legs.push({
                kind: 'posted',
                debit: await ledger.platformAccount('reward_pool', 'HOPE', r.user_id),
                credit: Number(r.community),
                amount: fmtHope(paidHope),
                logType: 11,
              })
            }
            if (legs.length) await ledger.apply(`settle:${day}:rank:${ids[0]}`, { ids }, legs, q)
            await q.query(
              'UPDATE settlement_rank_rewards SET paid = true WHERE run_id = $1 AND user_id = ANY ($2::bigint[])',
              [run.id, ids],
            )
            await q.query('UPDATE settlement_runs SET rank_hope = rank_hope + $2 WHERE id = $1', [
              run.id,
              fmtHope(total),
            ])
            return ids.length
          })
          if (!paid) break
          hooks.afterBatch?.(++batches)
        }
        after = '0'
        for (;;) {
          const paid = await inTransaction(async (q) => {
            const rows = await q.query<{
              id: string
              amount: string
              released: string
              community: string
            }>(
              `SELECT i.id::text, i.amount::text, i.released::text, a.id::text AS community
                 FROM pledge_items i
                 JOIN ledger_accounts a ON a.user_id = i.user_id AND a.kind = 'community'
                WHERE NOT i.redeemed AND (i.settled_through IS NULL OR i.settled_through < $1::date)
                  AND i.created_at < (($1::date + 1)::timestamp - make_interval(mins => $4)) AT TIME ZONE 'UTC'
                  AND i.id > $3
                ORDER BY i.id LIMIT $2 FOR UPDATE OF i SKIP LOCKED`,
              [day, SETTLE_BATCH, after, s.settlementUtcOffsetMinutes],
            )
            if (!rows.rows.length) return 0
            after = rows.rows.at(-1)!.id
            const ids: string[] = []
            const amounts: string[] = []
            const done: boolean[] = []
            const legs: SqlLeg[] = []
            let total = 0n
            for (const r of rows.rows) {
              const rel = linearRelease(hope(r.amount), hope(r.released), pledgeRate)
              ids.push(r.id)
              amounts.push(fmtHope(rel.amount))
              done.push(rel.done)
              if (rel.amount > 0n) {
                total += rel.amount
                legs.push({
                  kind: 'posted',
                  debit: await ledger.platformAccount('stake_pool', 'HOPE', r.id),
                  credit: Number(r.community),
                  amount: fmtHope(rel.amount),
                  logType: 3,
                  ref: `pledge:${r.id}`,
                })
              }
            }
            if (legs.length)
              await ledger.apply(`settle:${day}:pledge:${ids[0]}`, { ids, amounts }, legs, q)
            await q.query(
              `UPDATE pledge_items i SET released = i.released + u.amount, redeemed = u.done, settled_through = $1::date
                 FROM unnest($2::bigint[], $3::numeric[], $4::boolean[]) AS u (id, amount, done)
                WHERE i.id = u.id`,
              [day, ids, amounts, done],
            )
            await q.query(
              'UPDATE settlement_runs SET pledges = pledges + $2, pledge_hope = pledge_hope + $3 WHERE id = $1',
              [run.id, ids.length, fmtHope(total)],
            )
            return ids.length
          })
          if (!paid) break
          hooks.afterBatch?.(++batches)
        }
        // Split HOPE (log 4): the daily rate of what was bought by the end of the day.
        const splitRate = ppm(s.splitDailyRate)
        after = '0'
        for (;;) {
          const paid = await inTransaction(async (q) => {
            const rows = await q.query<{
              user_id: string
              total: string
              released: string
              split: string
              community: string
              is_robot: boolean
            }>(
              `SELECT g.user_id::text, (g.total - later.hope)::text AS total, g.released::text,
                      sp.id::text AS split, cm.id::text AS community, u.is_robot
                 FROM split_grants g
                 CROSS JOIN LATERAL (
                   SELECT coalesce(sum(d.hope), 0) AS hope FROM split_grant_days d
                    WHERE d.user_id = g.user_id AND d.day > $1::date) later
                 JOIN users u ON u.id = g.user_id
                 JOIN ledger_accounts sp ON sp.user_id = g.user_id AND sp.kind = 'split'
                 JOIN ledger_accounts cm ON cm.user_id = g.user_id AND cm.kind = 'community'
                WHERE g.released < g.total - later.hope
                  AND (g.settled_through IS NULL OR g.settled_through < $1::date)
                  AND g.user_id > $3
                ORDER BY g.user_id LIMIT $2 FOR UPDATE OF g SKIP LOCKED`,
              [day, SETTLE_BATCH, after],
            )
            if (!rows.rows.length) return 0
            after = rows.rows.at(-1)!.user_id
            const ids: string[] = []
            const amounts: string[] = []
            const legs: SqlLeg[] = []
            let total = 0n
            for (const r of rows.rows) {
              const rel = r.is_robot
                ? { amount: 0n }
                : linearRelease(hope(r.total), hope(r.released), splitRate)
              ids.push(r.user_id)
              amounts.push(fmtHope(rel.amount))
              if (rel.amount > 0n) {
                total += rel.amount
                legs.push({
                  kind: 'posted',
                  debit: Number(r.split),
                  credit: Number(r.community),
                  amount: fmtHope(rel.amount),
                  logType: 4,
                })
              }
            }
            if (legs.length)
              await ledger.apply(`settle:${day}:split:${ids[0]}`, { ids, amounts }, legs, q)
            await q.query(
              `UPDATE split_grants g SET released = g.released + u.amount, settled_through = $1::date
                 FROM unnest($2::bigint[], $3::numeric[]) AS u (id, amount) WHERE g.user_id = u.id`,
              [day, ids, amounts],
            )
            await q.query(
              'UPDATE settlement_runs SET splits = splits + $2, split_hope = split_hope + $3 WHERE id = $1',
              [run.id, ids.length, fmtHope(total)],
            )
            return ids.length
          })
          if (!paid) break
          hooks.afterBatch?.(++batches)
        }
        await inTransaction(async (q) => {
          const key = `settle:${day}:nodes`
          if ((await repo.movedUnder(q, key)).length) return
          const totals = await repo.runById(q, run.id)
          const allocated = usdtFor(hope(totals!.consensusHope), price)
          const holders = await q.query<{
            user_id: string
            type: 1 | 2 | 3
            source: string
            account: string
          }>(
            `SELECT n.user_id::text, n.type, n.source, a.id::text AS account
               FROM node_holders n JOIN users u ON u.id = n.user_id AND NOT u.is_robot
               JOIN ledger_accounts a ON a.user_id = n.user_id
                AND a.kind = CASE WHEN n.source = 'granted' THEN 'shareholder' ELSE 'node' END
              ORDER BY n.user_id, n.type`,
          )
          const accountOf = new Map(
            holders.rows.map((h) => [`${h.user_id}:${h.type}`, Number(h.account)]),
          )
          const shares = nodeShares(
            allocated,
            holders.rows.map((h) => ({ userId: Number(h.user_id), type: h.type })),
            s.nodeRewardRates.map(ppm) as [bigint, bigint, bigint],
          )
          if (!shares.length) return
          const legs: SqlLeg[] = []
          for (const x of shares)
            legs.push({
              kind: 'posted',
              debit: await ledger.platformAccount('reward_pool', 'USDT', `${x.userId}`),
              credit: accountOf.get(`${x.userId}:${x.type}`)!,
              amount: fmtUsdt(x.value),
              logType: 10,
            })
          await ledger.apply(key, { day }, legs, q)
          const paidOut = shares.reduce((t, x) => t + x.value, 0n)
          await q.query('UPDATE settlement_runs SET node_usdt = $2 WHERE id = $1', [
            run.id,
            fmtUsdt(paidOut),
          ])
        })
        return repo.finishRun(lockConn, run.id)
      })
      if (!result) throw new AppError('already_resolved', { detail: 'a settlement is running' })
      return result
    },
  }
}

export type GameService = ReturnType<typeof createGameService>
