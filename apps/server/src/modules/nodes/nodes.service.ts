import {
  formatAmount,
  parseAmount,
  trimDecimal,
  type Earnings,
  type MemberFlags,
  type NodeType,
  type PurchaseResult,
  LOG_TYPE,
} from '@hope/api'
import type pg from 'pg'
import { inTransaction, type Queryable } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import { formatHope, formatUsdt, usdtUnits } from '../../lib/units.ts'
import { replayedRequest } from '../ledger/ledger.service.ts'
import {
  lockMemberId,
  lockUserLevel,
  memberFlags,
  nodesOf,
} from '../membership/membership.service.ts'
import { recordAudit } from '../audit/audit.service.ts'
import { inPurchaseTurn, type SaleService } from '../sale/sale.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './nodes.repository.ts'

/**
 * Every node holder a day's node rewards go to (robots left out), with the account each is
 * paid into: what settlement reads of the nodes.
 */
export function rewardedHolders(
  q: Queryable,
): Promise<{ userId: number; type: NodeType; account: number }[]> {
  return repo.rewardedHolders(q)
}

/**
 * Nodes (DESIGN §7): bought in the app or granted to shareholders by operators, paid a share
 * of each day's allocation; and the rewards a member has earned, by kind.
 */
export function createNodesService(deps: {
  pool: pg.Pool
  settings: SettingsService
  sale: SaleService
}) {
  const { pool, settings, sale } = deps
  return {
    /** Node activation for its price; like any purchase it buys HOPE into the split account. */
    async buyNode(
      user: { id: number },
      params: { type: number; idempotencyKey: string },
    ): Promise<PurchaseResult> {
      const key = `node:${user.id}:${params.idempotencyKey}`
      return inPurchaseTurn(pool, async (q) => {
        const level = await lockUserLevel(q, user.id)
        const content = { node: params.type }
        const moved = await replayedRequest(q, key, content)
        const nodes = async () => (await nodesOf(q, user.id)).map((n) => n.type)
        if (moved?.length)
          return {
            paid: moved[0]!,
            hope: moved[1] ?? '0',
            level,
            nodes: await nodes(),
            replayed: true,
          }
        if ((await nodes()).includes(params.type as 1 | 2 | 3)) throw new AppError('node_owned')
        const s = await settings.get()
        const price = usdtUnits(s.nodePricesUsdt[params.type - 1]!)
        const hopeBought = await sale.purchase(q, user.id, key, price, content)
        await repo.addBoughtNode(q, user.id, params.type)
        return {
          paid: formatUsdt(price),
          hope: formatHope(hopeBought),
          level,
          nodes: await nodes(),
          replayed: false,
        }
      })
    },

    /** An operator grants a shareholder tier (rewards go to the shareholder account). */
    async grantShareholder(
      operatorId: number,
      params: { userName: string; type: number; reason: string },
    ): Promise<MemberFlags> {
      return inTransaction(pool, async (q) => {
        const id = await lockMemberId(q, params.userName)
        if (id === null) throw new AppError('not_registered')
        const before = await memberFlags(q, id)
        await repo.grantNode(q, id, params.type)
        const after = await memberFlags(q, id)
        await recordAudit(q, {
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

    /** Rewards received by log type: in all, and since the current settlement day began. */
    async earnings(userId: number, now = new Date()): Promise<Earnings> {
      const s = await settings.get()
      const offset = s.settlementUtcOffsetMinutes * 60_000
      const day = new Date(now.getTime() + offset).toISOString().slice(0, 10)
      const since = new Date(Date.parse(`${day}T00:00:00Z`) - offset)
      const rows = await repo.earningsOf(pool, userId, since)
      const decimals = { USDT: 6, HOPE: 18 } as const
      const items = repo.EARNING_LOG_TYPES.map((logType) => {
        const currency: 'USDT' | 'HOPE' = logType === LOG_TYPE.nodeReward ? 'USDT' : 'HOPE'
        const row = rows.find((r) => r.logType === logType && r.currency === currency)
        const units = (v: string | undefined) =>
          formatAmount(parseAmount(trimDecimal(v ?? '0'), decimals[currency])!, decimals[currency])
        return { logType, currency, total: units(row?.total), today: units(row?.today) }
      })
      return { day, utcOffsetMinutes: s.settlementUtcOffsetMinutes, items }
    },
  }
}

export type NodesService = ReturnType<typeof createNodesService>
