import type { MemberFlags, PurchaseResult, VipInfo } from '@hope/api'
import type pg from 'pg'
import { inTransaction, type Queryable } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import { formatHope, formatUsdt, usdtUnits } from '../../lib/units.ts'
import { replayedRequest } from '../ledger/ledger.service.ts'
import { recordAudit } from '../audit/audit.service.ts'
import type { OutflowService } from '../outflow/outflow.service.ts'
import { inPurchaseTurn, splitOf, type SaleService } from '../sale/sale.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { teamAdd } from '../team/team.service.ts'
import { setLevel, setLocation, setRobot } from '../user/user.service.ts'
import * as repo from './membership.repository.ts'
import type { NodeHolding } from './membership.repository.ts'
import { upgradeCost } from './membership.rules.ts'

/**
 * Locks the member's row (step 1 of docs/lock-order.md) while the caller's transaction changes
 * what depends on their level, and returns the level.
 */
export function lockUserLevel(q: Queryable, userId: number): Promise<number> {
  return repo.lockUserLevel(q, userId)
}

/** Locks the row of the member signed in as `userName`, like `lockUserLevel`; null if unknown. */
export function lockMemberId(q: Queryable, userName: string): Promise<number | null> {
  return repo.lockMemberId(q, userName)
}

/** The nodes a member holds, by type, and how each came (bought or granted). */
export function nodesOf(q: Queryable, userId: number): Promise<NodeHolding[]> {
  return repo.nodesOf(q, userId)
}

/** What the console shows of a member's standing: robot flag and nodes. */
export function memberFlags(q: Queryable, userId: number): Promise<MemberFlags> {
  return repo.memberFlags(q, userId)
}

/**
 * Membership levels (DESIGN §7): bought by the member or paid by an upline for a downline,
 * only the difference each time, the HOPE it buys going to the split account.
 */
export function createMembershipService(deps: {
  pool: pg.Pool
  settings: SettingsService
  sale: SaleService
  outflows: OutflowService
}) {
  const { pool, settings, sale, outflows } = deps

  const levelPrices = async () => [0n, ...(await settings.get()).levelPricesUsdt.map(usdtUnits)]

  /**
   * The answer of a request carried out under `key` already, or a refusal when `to` is no
   * upgrade from `level`; nothing when the request is new and may go ahead.
   */
  async function replayedOrRefused(
    q: Pick<pg.Pool | pg.PoolClient, 'query'>,
    key: string,
    content: Record<string, number>,
    level: number,
    to: number,
  ): Promise<PurchaseResult | undefined> {
    const moved = await replayedRequest(q, key, content)
    if (moved?.length)
      return { paid: moved[0]!, hope: moved[1] ?? '0', level, nodes: [], replayed: true }
    if (to <= level) throw new AppError('not_an_upgrade')
    return undefined
  }

  /** A registered member of `payer`'s downline by address, refused otherwise. */
  async function downlineMember(payer: { id: number }, address: string) {
    const member = await repo.memberByAddress(pool, address)
    if (!member) throw new AppError('not_registered')
    if (!member.ancestorIds.includes(payer.id)) throw new AppError('not_downline')
    return member
  }

  /** Buys `userId`'s upgrade from `level` to `to` (paid by `payerId` when given) and sets it. */
  async function buyLevel(
    q: pg.PoolClient,
    userId: number,
    key: string,
    content: Record<string, number>,
    level: number,
    to: number,
    payerId?: number,
  ): Promise<PurchaseResult> {
    const cost = upgradeCost(await levelPrices(), level, to)
    const hopeBought = await sale.purchase(q, userId, key, cost, content, payerId)
    await setLevel(q, userId, to)
    return {
      paid: formatUsdt(cost),
      hope: formatHope(hopeBought),
      level: to,
      nodes: [],
      replayed: false,
    }
  }

  return {
    /** Membership upgrade: pays only the difference; the HOPE it buys goes to the split account. */
    async upgrade(
      user: { id: number },
      params: { level: number; idempotencyKey: string },
    ): Promise<PurchaseResult> {
      const key = `upgrade:${user.id}:${params.idempotencyKey}`
      return inPurchaseTurn(pool, async (q) => {
        const level = await repo.lockUserLevel(q, user.id)
        const content = { level: params.level }
        const replayed = await replayedOrRefused(q, key, content, level, params.level)
        return replayed ?? buyLevel(q, user.id, key, content, level, params.level)
      })
    },

    /**
     * What activating a downline member to `level` costs the payer now (only the difference
     * over the member's level): the price the payer's wallet signs, refused as the activation
     * itself would be.
     */
    async activationPrice(
      payer: { id: number },
      params: { address: string; level: number },
    ): Promise<bigint> {
      const member = await downlineMember(payer, params.address)
      const level = await repo.levelOf(pool, member.id)
      if (params.level <= level) throw new AppError('not_an_upgrade')
      return upgradeCost(await levelPrices(), level, params.level)
    },

    /**
     * Activation of a downline member: the payer pays the member's upgrade to `level` (only the
     * difference), the HOPE goes to the member's split account; a partition given moves the
     * member while they have no team and no level yet. Paying for another member is an outflow
     * (DESIGN §5a): the payer's wallet signs the price for this member under this key.
     */
    async activate(
      payer: { id: number; userName: string },
      params: {
        address: string
        level: number
        location?: number | undefined
        idempotencyKey: string
        signature?: `0x${string}` | undefined
        deadline?: number | undefined
      },
    ): Promise<PurchaseResult> {
      const key = `activate:${payer.id}:${params.idempotencyKey}`
      const member = await downlineMember(payer, params.address)
      const memberId = member.id
      const content = { member: memberId, level: params.level, location: params.location ?? 0 }
      // A request carried out already answers as it did, signed or not: it moves nothing more.
      const before = await repo.levelOf(pool, memberId)
      const done = await replayedOrRefused(pool, key, content, before, params.level)
      if (done) return done
      // Checked before the purchase turn, which a contract wallet's check (a call to the chain)
      // must not hold up; the turn charges only while the price is still the one signed.
      const price = upgradeCost(await levelPrices(), before, params.level)
      const signed = await outflows.assertSigned(payer, {
        kind: 'activate',
        to: params.address as `0x${string}`,
        amount: price,
        idempotencyKey: params.idempotencyKey,
        signature: params.signature,
        deadline: params.deadline,
      })
      return inPurchaseTurn(pool, async (q) => {
        const level = await repo.lockUserLevel(q, memberId)
        const replayed = await replayedOrRefused(q, key, content, level, params.level)
        if (replayed) return replayed
        // The price moved since the wallet signed it (another upline paid a level meanwhile, or
        // the level prices changed): the signature no longer says what this would charge.
        if (signed && upgradeCost(await levelPrices(), level, params.level) !== price)
          throw new AppError('outflow_signature_invalid')
        if (params.location) {
          const placed = await repo.placementOf(q, memberId)
          if (placed.location !== params.location) {
            if (level > 0 || placed.teamPeople !== 0 || placed.positions !== 0)
              throw new AppError('placement_locked')
            await teamAdd(q, memberId, { people: -1 })
            await setLocation(q, memberId, params.location)
            await teamAdd(q, memberId, { people: 1 })
          }
        }
        return buyLevel(q, memberId, key, content, level, params.level, payer.id)
      })
    },

    /** The node types a user holds, lowest first (what home shows beside the level). */
    async nodeTypes(userId: number): Promise<number[]> {
      return (await repo.nodesOf(pool, userId)).map((node) => node.type).sort((a, b) => a - b)
    },

    async vipInfo(userId: number): Promise<VipInfo> {
      const [s, level, nodes, split] = await Promise.all([
        settings.get(),
        repo.levelOf(pool, userId),
        repo.nodesOf(pool, userId),
        splitOf(pool, userId),
      ])
      return {
        level,
        levelPrices: s.levelPricesUsdt,
        nodes,
        nodePrices: s.nodePricesUsdt,
        nodeRewardRates: s.nodeRewardRates,
        split,
        splitDailyRate: s.splitDailyRate,
        applicationEmail: s.shareholderApplicationEmail,
      }
    },

    /** An operator flags or unflags a robot account. */
    async flagRobot(
      operatorId: number,
      params: { userName: string; robot: boolean; reason: string },
    ): Promise<MemberFlags> {
      return inTransaction(pool, async (q) => {
        const id = await repo.lockMemberId(q, params.userName)
        if (id === null) throw new AppError('not_registered')
        const before = await repo.memberFlags(q, id)
        await setRobot(q, id, params.robot)
        const after = await repo.memberFlags(q, id)
        await recordAudit(q, {
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
  }
}

export type MembershipService = ReturnType<typeof createMembershipService>
