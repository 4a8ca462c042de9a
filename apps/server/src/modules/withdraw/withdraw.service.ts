import {
  CURRENCY_DECIMALS,
  formatAmount,
  parseAmount,
  trimDecimal,
  type Page,
  type Withdrawal,
  type WithdrawAddressCheck,
  LOG_TYPE,
} from '@hope/api'
import { usdtUnits } from '../../lib/units.ts'
import type pg from 'pg'
import { assertAmountWithinBound } from '../../lib/amount-bound.ts'
import { inTransaction, type Queryable } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import { withTimeout } from '../../lib/with-timeout.ts'
import type { SqlLeg } from '../ledger/ledger.rules.ts'
import { feeFor } from '../ledger/ledger.rules.ts'
import { recordAudit } from '../audit/audit.service.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import type { NoticeService } from '../notice/notice.service.ts'
import type { OutflowService } from '../outflow/outflow.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './withdraw.repository.ts'
import type { WithdrawalRow } from './withdraw.repository.ts'
import {
  holdHoursFor,
  holdIsOver,
  isContractCode,
  isForbiddenDestination,
  transition,
  vaultPaymentMeaning,
  type VaultPaid,
  type WithdrawalEvent,
} from './withdraw.rules.ts'

const USDT = CURRENCY_DECIMALS.USDT

export type { WithdrawalRow } from './withdraw.repository.ts'

export const toWithdrawal = (r: WithdrawalRow): Withdrawal => ({
  id: r.id,
  amount: trimDecimal(r.amount),
  fee: trimDecimal(r.fee),
  address: r.toAddress,
  status: r.status,
  txHash: r.txHash,
  reviewReason: r.reviewReason,
  holdUntil: r.holdUntil ? r.holdUntil.toISOString() : null,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
})

/**
 * Moves a locked withdrawal by `event`, settling the reserved money as the state machine says
 * (post on completion, void on refund) in the caller's transaction.
 */
export async function applyWithdrawalEvent(
  q: Queryable,
  ledger: LedgerService,
  row: WithdrawalRow,
  event: WithdrawalEvent,
  set: { reviewedBy?: number; reviewReason?: string; failure?: string } = {},
): Promise<WithdrawalRow> {
  const t = transition(row.status, event)
  if (!t.ok) throw new AppError('withdrawal_state')
  if (t.ledger !== 'none') {
    const legs: SqlLeg[] = [row.amountTransferId, row.feeTransferId]
      .filter((id): id is number => id !== null)
      .map((pending) =>
        t.ledger === 'post' ? { kind: 'post_pending', pending } : { kind: 'void_pending', pending },
      )
    await ledger.apply(
      `withdraw-${t.ledger}:${row.id}`,
      { withdrawal: row.id, settle: t.ledger },
      legs,
      q,
    )
  }
  return repo.setStatus(q, row.id, t.to, set)
}

/** What the books made of a `Paid` event of the payout vault. */
export type VaultPayoutOutcome =
  | { outcome: 'confirmed'; withdrawalId: number }
  | { outcome: 'known'; withdrawalId: number }
  | { outcome: 'unknown' }
  | { outcome: 'mismatch'; withdrawalId: number; detail: string }

/**
 * Learns a payout from the chain: the vault paid `paid.payoutId`. An approved withdrawal under
 * that id is confirmed with the chain's transaction (after a restore the books learn what the
 * chain already paid, and the vault refuses to pay it again); a paid one keeps the chain's hash;
 * an id the books do not know, or a payout that differs from the books, is told to the caller,
 * which raises the alarm.
 */
export async function learnVaultPayout(
  db: pg.Pool | pg.PoolClient,
  ledger: LedgerService,
  paid: VaultPaid & { decimals: number },
): Promise<VaultPayoutOutcome> {
  return inTransaction(db, async (q) => {
    const row = await repo.lockByPayoutId(q, paid.payoutId)
    if (!row) return { outcome: 'unknown' }
    const meaning = vaultPaymentMeaning(
      { ...row, units: parseAmount(trimDecimal(row.amount), paid.decimals) ?? -1n },
      paid,
    )
    if (meaning.act === 'mismatch')
      return { outcome: 'mismatch', withdrawalId: row.id, detail: meaning.detail }
    const known =
      row.txHash?.toLowerCase() === paid.txHash.toLowerCase() &&
      row.txBlock === String(paid.blockNumber)
    if (meaning.act === 'confirm') await applyWithdrawalEvent(q, ledger, row, 'confirm')
    if (!known) await repo.recordChainPayout(q, row.id, paid.txHash, paid.blockNumber)
    return meaning.act === 'confirm'
      ? { outcome: 'confirmed', withdrawalId: row.id }
      : { outcome: 'known', withdrawalId: row.id }
  })
}

const DAY_MS = 86_400_000
/** How long a withdrawal waits for the chain to say whether its destination is a contract. */
const CODE_TIMEOUT_MS = 3_000

export function createWithdrawService(deps: {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
  outflows: OutflowService
  notices: NoticeService
  chainId: () => number | undefined
  /** The code deployed at an address on the app's chain (`eth_getCode`); absent without one. */
  codeAt?: ((address: `0x${string}`) => Promise<string | undefined>) | undefined
}) {
  const { pool, ledger, settings } = deps
  // The wallets of the signer's keys (hot wallet, proof publisher): known once it answers.
  let keyAddresses: string[] = []

  /** The platform's own addresses no withdrawal may go to (see isForbiddenDestination). */
  async function platformAddresses(): Promise<string[]> {
    const s = await settings.get()
    return [
      s.chainTokenAddress,
      s.chainDepositAddress,
      s.payoutVaultAddress,
      s.porRegistryAddress,
      ...s.porReserveSignatures.map((r) => r.address),
      ...keyAddresses,
    ]
  }

  /**
   * Whether code is deployed at `address`: null when there is no chain, or it did not answer
   * within CODE_TIMEOUT_MS (a withdrawal is not held up by a slow node; operators see unknown).
   */
  async function contractAt(address: string): Promise<boolean | null> {
    if (!deps.codeAt) return null
    try {
      return isContractCode(
        await withTimeout(deps.codeAt(address as `0x${string}`), CODE_TIMEOUT_MS),
      )
    } catch {
      return null
    }
  }

  return {
    /** Reserves amount + fee at once (two pending transfers) and records the request. */
    async request(
      user: { id: number; userName: string },
      params: {
        amount: string
        address?: `0x${string}` | undefined
        idempotencyKey: string
        signature?: `0x${string}` | undefined
        deadline?: number | undefined
      },
    ): Promise<Withdrawal> {
      const s = await settings.get()
      const amount = usdtUnits(params.amount)
      assertAmountWithinBound(s, 'USDT', amount)
      if (amount < usdtUnits(s.withdrawMinUsdt))
        throw new AppError('amount_below_minimum', { detail: s.withdrawMinUsdt })
      const fee = feeFor(amount, {
        fixed: usdtUnits(s.withdrawFeeFixedUsdt),
        rate: s.withdrawFeeRate,
      })
      const to = (params.address ?? user.userName).toLowerCase()
      // Before anything else: the wallet is never asked to sign what cannot be right.
      if (isForbiddenDestination(to, await platformAddresses()))
        throw new AppError('withdraw_address_forbidden')
      const existing = await repo.findByIdempotencyKey(pool, user.id, params.idempotencyKey)
      if (existing) {
        const row = existing
        if (usdtUnits(row.amount) !== amount || row.toAddress !== to)
          throw new AppError('idempotency_conflict')
        return toWithdrawal(row)
      }
      // Away from the user's own wallet only with that wallet's signature of exactly this;
      // operators see in the review list whether it was signed.
      const walletSigned = await deps.outflows.assertSigned(user, {
        kind: 'withdraw',
        to: to as `0x${string}`,
        amount,
        idempotencyKey: params.idempotencyKey,
        signature: params.signature,
        deadline: params.deadline,
      })
      // Early and cheap; the ledger still refuses an overdraft itself under concurrency.
      if (amount + fee > (await ledger.available(user.id, 'usdt')))
        throw new AppError('insufficient_balance')
      const chainId = deps.chainId()
      if (!chainId) throw new AppError('service_unavailable', { detail: 'chain' })
      // Asked outside the transaction; operators see the answer in the review list.
      const contractDestination = await contractAt(to)
      const accounts = await ledger.userAccountIds(user.id)
      const key = `withdraw:${user.id}:${params.idempotencyKey}`
      const legs: SqlLeg[] = [
        {
          kind: 'pending',
          debit: accounts.usdt,
          credit: await ledger.platformAccount('withdrawals_in_flight', 'USDT'),
          amount: formatAmount(amount, USDT),
          logType: LOG_TYPE.withdrawal,
        },
      ]
      if (fee > 0n) {
        legs.push({
          kind: 'pending',
          debit: accounts.usdt,
          credit: await ledger.platformAccount('fees', 'USDT', key),
          amount: formatAmount(fee, USDT),
          logType: LOG_TYPE.fee,
        })
      }
      // Set when the limits refuse: the user hears of it after the refusal rolled back.
      let limitLeft: string | null = null
      const requested = inTransaction(pool, async (q) => {
        const outcome = await ledger.apply(key, { to, amount: formatAmount(amount, USDT) }, legs, q)
        // Counted once the user's account is locked by the reservation above, so two requests
        // at once cannot both slip under the limit.
        const now = Date.now()
        const left = [
          usdtUnits(s.withdrawDailyLimitUsdt) -
            usdtUnits(await repo.withdrawnSince(q, user.id, new Date(now - DAY_MS))),
          usdtUnits(s.withdrawMonthlyLimitUsdt) -
            usdtUnits(await repo.withdrawnSince(q, user.id, new Date(now - 30 * DAY_MS))),
        ].reduce((a, b) => (a < b ? a : b))
        if (amount > left) {
          limitLeft = formatAmount(left > 0n ? left : 0n, USDT)
          throw new AppError('withdraw_limit_reached', { detail: `${limitLeft} USDT` })
        }
        const inserted = await repo.insertWithdrawal(q, {
          userId: user.id,
          chainId,
          toAddress: to,
          amount: formatAmount(amount, USDT),
          fee: formatAmount(fee, USDT),
          idempotencyKey: params.idempotencyKey,
          amountTransferId: outcome.transfers[0]!,
          feeTransferId: outcome.transfers[1] ?? null,
          contractDestination,
          walletSigned,
          holdHours: holdHoursFor({
            owner: user.userName,
            to,
            paidThereBefore: await repo.paidAtBefore(q, user.id, to),
            hours: s.newAddressHoldHours,
          }),
        })
        if (inserted) {
          const detail = {
            address: to,
            amount: formatAmount(amount, USDT),
            withdrawalId: inserted.id,
          }
          if (inserted.holdUntil)
            await deps.notices.notify(
              user.id,
              'new_withdrawal_address',
              { ...detail, holdUntil: inserted.holdUntil.toISOString() },
              q,
            )
          await deps.notices.notify(user.id, 'withdrawal_requested', detail, q)
          return toWithdrawal(inserted)
        }
        // The same request, tapped twice: the first one's row is committed by now.
        const first = await repo.findByIdempotencyKey(q, user.id, params.idempotencyKey)
        if (!first || usdtUnits(first.amount) !== amount) throw new AppError('idempotency_conflict')
        return toWithdrawal(first)
      })
      try {
        return await requested
      } catch (e) {
        if (limitLeft !== null)
          await deps.notices
            .notify(user.id, 'limit_reached', {
              amount: formatAmount(amount, USDT),
              left: limitLeft,
            })
            .catch(() => {})
        throw e
      }
    },

    /**
     * The wallets of the signer's keys (the hot wallet, the proof publisher), learnt once the
     * signer answers: no withdrawal may go to them either.
     */
    knowKeyAddresses(addresses: readonly (string | null | undefined)[]): void {
      keyAddresses = addresses.filter((a): a is string => !!a).map((a) => a.toLowerCase())
    },

    /** `userAccount/checkWithdrawAddress`: refused, or a contract, before the wallet signs. */
    async checkDestination(address: string): Promise<WithdrawAddressCheck> {
      if (isForbiddenDestination(address, await platformAddresses()))
        return { forbidden: true, contract: null }
      return { forbidden: false, contract: await contractAt(address.toLowerCase()) }
    },

    async mine(
      userId: number,
      page: { pageNum: number; pageSize: number },
    ): Promise<Page<Withdrawal>> {
      const [rows, total] = await Promise.all([
        repo.listOfUser(pool, userId, {
          limit: page.pageSize,
          offset: (page.pageNum - 1) * page.pageSize,
        }),
        repo.countOfUser(pool, userId),
      ])
      return { list: rows.map(toWithdrawal), total, ...page }
    },

    async cancel(userId: number, id: number): Promise<Withdrawal> {
      return inTransaction(pool, async (q) => {
        const row = await repo.lockWithdrawal(q, id)
        if (!row || row.userId !== userId) throw new AppError('not_found')
        const cancelled = await applyWithdrawalEvent(q, ledger, row, 'cancel')
        // The bell said it was requested (and that it could be cancelled): it says this too.
        await deps.notices.notify(
          userId,
          'withdrawal_cancelled',
          { address: row.toAddress, amount: trimDecimal(row.amount), withdrawalId: row.id },
          q,
        )
        return toWithdrawal(cancelled)
      })
    },

    async review(
      operatorId: number,
      params: { id: number; decision: 'approve' | 'reject'; reason?: string | undefined },
    ): Promise<Withdrawal> {
      return inTransaction(pool, async (q) => {
        const row = await repo.lockWithdrawal(q, params.id)
        if (!row) throw new AppError('not_found')
        const event = params.decision === 'approve' ? 'approve' : 'reject'
        // A new address waits out its hold before it is paid; it may be rejected any time.
        if (event === 'approve' && row.status === 0 && !holdIsOver(row.holdUntil, new Date()))
          throw new AppError('withdrawal_on_hold', { detail: row.holdUntil!.toISOString() })
        const after = await applyWithdrawalEvent(q, ledger, row, event, {
          reviewedBy: operatorId,
          ...(params.reason ? { reviewReason: params.reason } : {}),
        })
        await recordAudit(q, {
          operatorId,
          action: params.decision === 'approve' ? 'withdraw_approve' : 'withdraw_reject',
          targetUserId: row.userId,
          amount: row.amount,
          reason: params.reason ?? '',
          before: { withdrawal: row.id, status: row.status },
          after: { withdrawal: row.id, status: after.status },
        })
        return toWithdrawal(after)
      })
    },
  }
}

export type WithdrawService = ReturnType<typeof createWithdrawService>
