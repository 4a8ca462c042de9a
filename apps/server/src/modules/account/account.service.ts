import {
  ACCOUNT_CURRENCY,
  ACCOUNT_KINDS,
  LOCKED_ACCOUNTS,
  CURRENCY_DECIMALS,
  formatAmount,
  parseAmount,
  trimDecimal,
  type AccountLogPage,
  type AddressCheck,
  BalanceDetailParams,
  type BalanceList,
  type CollectResult,
  type EnabledCoin,
  type TransferResult,
  LOG_TYPE,
} from '@hope/api'
import type pg from 'pg'
import type { z } from 'zod'
import { assertAmountWithinBound } from '../../lib/amount-bound.ts'
import { AppError } from '../../lib/app-error.ts'
import { feeFor, type SqlLeg } from '../ledger/ledger.rules.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import { hopePrice, valueInUsdt } from '../../lib/pricing.ts'
import type { OutflowService } from '../outflow/outflow.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { accountLog, hopeOutsideAccounts, recipientByAddress } from './account.repository.ts'
import { isInDownline } from './account.rules.ts'

const USDT = CURRENCY_DECIMALS.USDT
const usdtUnits = (v: string) => parseAmount(trimDecimal(v), USDT)!
const sub18 = (a: string, b: string) =>
  formatAmount(parseAmount(trimDecimal(a), 18)! - parseAmount(trimDecimal(b), 18)!, 18)

export function createAccountService(deps: {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
  outflows: OutflowService
}) {
  const { pool, ledger, settings, outflows } = deps

  async function currentHopePrice(): Promise<string> {
    return hopePrice(await ledger.hopeIssued(), await settings.get())
  }

  return {
    currentHopePrice,

    async balance(userId: number): Promise<BalanceList> {
      const [{ accounts: rows, issued }, s, outside] = await Promise.all([
        ledger.userAccountsAndIssued(userId),
        settings.get(),
        hopeOutsideAccounts(pool, userId),
      ])
      const price = hopePrice(issued, s)
      const accounts = ACCOUNT_KINDS.map((kind) => {
        const row = rows.find((r) => r.kind === kind)
        const currency = ACCOUNT_CURRENCY[kind]
        const balance = trimDecimal(row?.balance ?? '0')
        const pending = trimDecimal(row?.debitsPending ?? '0')
        // A locked account's HOPE is released into the community account, never spent as such.
        const locked = LOCKED_ACCOUNTS.includes(kind) ? trimDecimal(sub18(balance, pending)) : '0'
        return {
          kind,
          currency,
          balance,
          pending,
          locked,
          available: trimDecimal(sub18(sub18(balance, pending), locked)),
          valueUsdt: valueInUsdt(balance, currency, price),
        }
      })
      const stakedHope = trimDecimal(outside.staked)
      const pledgedHope = trimDecimal(outside.pledged)
      const total = [
        ...accounts.map((a) => a.valueUsdt),
        valueInUsdt(stakedHope, 'HOPE', price),
        valueInUsdt(pledgedHope, 'HOPE', price),
      ].reduce((sum, value) => sum + usdtUnits(value), 0n)
      const totalValueUsdt = formatAmount(total, USDT)
      // The spec's list, one item per account; the totals and the price ride on every item.
      return accounts.map((a) => ({
        ...a,
        totalValueUsdt,
        stakedHope,
        pledgedHope,
        hopePriceUsdt: price,
      }))
    },

    async balanceDetail(
      userId: number,
      params: z.output<typeof BalanceDetailParams>,
    ): Promise<AccountLogPage> {
      const rows = await accountLog(pool, {
        userId,
        kind: params.account,
        logType: params.logType,
        before: params.cursor,
        limit: params.pageSize + 1,
      })
      const page = rows.slice(0, params.pageSize)
      return {
        list: page.map((r) => ({
          id: r.id,
          account: r.kind,
          currency: r.currency,
          amount: trimDecimal(r.amount),
          balanceAfter: trimDecimal(r.balanceAfter),
          logType: r.logType,
          status: r.status,
          withdrawal: r.withdrawal,
          counterparty: r.counterparty,
          createdAt: r.createdAt.toISOString(),
        })),
        nextCursor: rows.length > params.pageSize ? (page.at(-1)?.id ?? null) : null,
      }
    },

    async enableCoins(): Promise<EnabledCoin[]> {
      const s = await settings.get()
      return (['USDT', 'HOPE'] as const).map((currency) => ({
        currency,
        decimals: CURRENCY_DECIMALS[currency],
        accounts: ACCOUNT_KINDS.filter((k) => ACCOUNT_CURRENCY[k] === currency),
        minTransfer: currency === 'USDT' ? s.transferMinUsdt : '0',
        transferFeeFixed: currency === 'USDT' ? s.transferFeeFixedUsdt : '0',
        transferFeeRate: currency === 'USDT' ? s.transferFeeRate : '0',
        minWithdraw: currency === 'USDT' ? s.withdrawMinUsdt : '0',
        withdrawFeeFixed: currency === 'USDT' ? s.withdrawFeeFixedUsdt : '0',
        withdrawFeeRate: currency === 'USDT' ? s.withdrawFeeRate : '0',
      }))
    },

    /** Where an address stands for a transfer from `sender`: read only, so the form can say why early. */
    async checkAddress(sender: { id: number }, address: string): Promise<AddressCheck> {
      const recipient = await recipientByAddress(pool, address)
      if (!recipient) return { registered: false, self: false, inDownline: false }
      return {
        registered: true,
        self: recipient.id === sender.id,
        inDownline: isInDownline(sender.id, recipient),
      }
    },

    /**
     * USDT from the sender's account to a member of the sender's downline (log 9), plus the
     * fee (log 14) when one is set. The client's key makes a double tap move money once.
     */
    async transfer(
      sender: { id: number; userName: string },
      params: {
        address: string
        amount: string
        idempotencyKey: string
        signature?: `0x${string}` | undefined
        deadline?: number | undefined
      },
    ): Promise<TransferResult> {
      const s = await settings.get()
      const amount = usdtUnits(params.amount)
      assertAmountWithinBound(s, 'USDT', amount)
      const recipient = await recipientByAddress(pool, params.address)
      if (!recipient) throw new AppError('not_registered')
      if (!isInDownline(sender.id, recipient)) throw new AppError('not_downline')
      if (amount < usdtUnits(s.transferMinUsdt))
        throw new AppError('amount_too_small', { detail: s.transferMinUsdt })
      const fee = feeFor(amount, {
        fixed: usdtUnits(s.transferFeeFixedUsdt),
        rate: s.transferFeeRate,
      })
      // A session alone moves nothing: the sender's wallet signs exactly this transfer.
      await outflows.assertSigned(sender, {
        kind: 'transfer',
        to: recipient.userName as `0x${string}`,
        amount,
        idempotencyKey: params.idempotencyKey,
        signature: params.signature,
        deadline: params.deadline,
      })

      const key = `transfer:${sender.id}:${params.idempotencyKey}`
      const [from, to] = await Promise.all([
        ledger.userAccountIds(sender.id),
        ledger.userAccountIds(recipient.id),
      ])
      const legs: SqlLeg[] = [
        {
          kind: 'posted',
          debit: from.usdt,
          credit: to.usdt,
          amount: formatAmount(amount, USDT),
          logType: LOG_TYPE.internalTransfer,
        },
      ]
      if (fee > 0n) {
        const feeAccount = await ledger.platformAccount('fees', 'USDT', key)
        legs.push({
          kind: 'posted',
          debit: from.usdt,
          credit: feeAccount,
          amount: formatAmount(fee, USDT),
          logType: LOG_TYPE.fee,
        })
      }
      const outcome = await ledger.apply(
        key,
        { to: recipient.id, amount: formatAmount(amount, USDT) },
        legs,
      )
      let movedFee = formatAmount(fee, USDT)
      if (outcome.replayed) {
        const moved = await ledger.transfersById(outcome.transfers)
        movedFee = trimDecimal(moved.find((t) => t.logType === LOG_TYPE.fee)?.amount ?? '0')
      }
      return {
        transferId: String(outcome.transfers[0]),
        amount: formatAmount(amount, USDT),
        fee: movedFee,
        to: recipient.userName,
        replayed: outcome.replayed,
      }
    },

    /**
     * A node or shareholder balance into the user's own USDT account (log 9 on both sides),
     * so it can be withdrawn; the client's key makes a double tap move it once.
     */
    async collect(
      user: { id: number },
      params: { account: 'node' | 'shareholder'; amount: string; idempotencyKey: string },
    ): Promise<CollectResult> {
      assertAmountWithinBound(await settings.get(), 'USDT', usdtUnits(params.amount))
      const amount = formatAmount(usdtUnits(params.amount), USDT)
      const own = await ledger.userAccountIds(user.id)
      const outcome = await ledger.apply(
        `collect:${user.id}:${params.idempotencyKey}`,
        { account: params.account, amount },
        [
          {
            kind: 'posted',
            debit: own[params.account],
            credit: own.usdt,
            amount,
            logType: LOG_TYPE.internalTransfer,
          },
        ],
      )
      return {
        transferId: String(outcome.transfers[0]),
        account: params.account,
        amount,
        replayed: outcome.replayed,
      }
    },
  }
}

export type AccountService = ReturnType<typeof createAccountService>
