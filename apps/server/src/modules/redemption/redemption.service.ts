import { LOG_TYPE } from '@hope/api'
import type { Page, PledgeItem, RedeemResult } from '@hope/api'
import type pg from 'pg'
import { inTransaction, type Queryable } from '../../db/transaction.ts'
import { assertAmountWithinBound } from '../../lib/amount-bound.ts'
import { AppError } from '../../lib/app-error.ts'
import { formatHope, formatUsdt, hopeUnits, ppmUnits } from '../../lib/units.ts'
import type { SqlLeg } from '../ledger/ledger.rules.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import type { SaleService } from '../sale/sale.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './redemption.repository.ts'
import { linearRelease, redemption } from './redemption.rules.ts'

/** One pledge item's part of a day's release: the HOPE it frees to its owner's community account. */
export interface PledgeRelease {
  id: string
  community: number
  amount: bigint
}

/**
 * Releases the next batch of pledge items due on `day` (made before it ended, local time
 * `utcOffsetMinutes`; ids after `after`), in the caller's transaction: `dailyRate` ppm of each
 * item is added to what it released and it is settled through `day`, redeemed once nothing is
 * left. Returns what each released, for the caller to pay; empty when none is left.
 */
export async function releaseDuePledges(
  q: Queryable,
  day: string,
  batch: { limit: number; after: string; utcOffsetMinutes: number },
  dailyRate: bigint,
): Promise<PledgeRelease[]> {
  const rows = await repo.lockDuePledges(q, day, batch.limit, batch.after, batch.utcOffsetMinutes)
  const released = rows.map((r) => ({
    id: r.id,
    community: r.community,
    ...linearRelease(hopeUnits(r.amount), hopeUnits(r.released), dailyRate),
  }))
  if (rows.length)
    await repo.markPledgesReleased(
      q,
      day,
      released.map((r) => r.id),
      released.map((r) => formatHope(r.amount)),
      released.map((r) => r.done),
    )
  return released.map(({ done: _done, ...r }) => r)
}

/**
 * Redemption of community HOPE and the pledge items it leaves (DESIGN §7). Each redemption is
 * one ledger request in the same transaction as its pledge item.
 */
export function createRedemptionService(deps: {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
  sale: SaleService
}) {
  const { pool, ledger, settings, sale } = deps
  return {
    /**
     * Redemption of community HOPE at the real-time price: the redeemed share returns to the
     * supply and its USDT (less the fee) goes to the USDT account; the rest is pledged.
     */
    async redeem(
      user: { id: number },
      params: { amount: string; idempotencyKey: string },
    ): Promise<RedeemResult> {
      const s = await settings.get()
      const amount = hopeUnits(params.amount)
      assertAmountWithinBound(s, 'HOPE', amount)
      const key = `redeem:${user.id}:${params.idempotencyKey}`
      return inTransaction(pool, async (q) => {
        const price = await sale.currentPrice(q)
        const r = redemption(amount, price, {
          redeemShare: ppmUnits(s.redeemShare),
          feeRate: ppmUnits(s.redeemFeeRate),
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
            amount: formatHope(r.redeemed),
            logType: LOG_TYPE.communityIncomeRedemption,
          },
          r.redeemed,
        )
        add(
          {
            kind: 'posted',
            debit: await ledger.platformAccount('redemption_pool', 'USDT', key),
            credit: mine.usdt,
            amount: formatUsdt(r.gross),
            logType: LOG_TYPE.communityIncomeRedemption,
          },
          r.gross,
        )
        add(
          {
            kind: 'posted',
            debit: mine.usdt,
            credit: await ledger.platformAccount('fees', 'USDT', key),
            amount: formatUsdt(r.fee),
            logType: LOG_TYPE.fee,
          },
          r.fee,
        )
        add(
          {
            kind: 'posted',
            debit: mine.community,
            credit: await ledger.platformAccount('stake_pool', 'HOPE', key),
            amount: formatHope(r.pledged),
            logType: LOG_TYPE.pledgeExchange,
            ref: key,
          },
          r.pledged,
        )
        if (!legs.length) throw new AppError('redeem_amount_invalid')
        const outcome = await ledger.apply(key, { amount: formatHope(amount) }, legs, q)
        const row =
          existing ??
          (await repo.insertPledge(q, { userId: user.id, amount: formatHope(r.pledged), key }))
        return {
          redeemed: formatHope(r.redeemed),
          pledged: formatHope(r.pledged),
          price: formatUsdt(price),
          gross: formatUsdt(r.gross),
          fee: formatUsdt(r.fee),
          net: formatUsdt(r.net),
          pledge: repo.toPledge(row, s.pledgeDailyRate),
          replayed: outcome.replayed,
        }
      })
    },

    /** The member's pledge items, newest first. */
    async pledges(
      userId: number,
      page: { pageNum: number; pageSize: number },
    ): Promise<Page<PledgeItem>> {
      const s = await settings.get()
      const { list, total } = await repo.pledgesOf(pool, userId, page)
      return { list: list.map((r) => repo.toPledge(r, s.pledgeDailyRate)), total, ...page }
    },
  }
}

export type RedemptionService = ReturnType<typeof createRedemptionService>
