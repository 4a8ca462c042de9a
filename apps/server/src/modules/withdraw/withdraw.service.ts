import {
  CURRENCY_DECIMALS,
  formatAmount,
  parseAmount,
  trimDecimal,
  type Page,
  type Withdrawal,
} from '@hope/api'
import type pg from 'pg'
import { assertAmountWithinBound } from '../../lib/amount-bound.ts'
import { AppError } from '../../lib/app-error.ts'
import type { SqlLeg } from '../ledger/ledger.repository.ts'
import { feeFor } from '../ledger/ledger.rules.ts'
import { insertAudit } from '../operator/operator.repository.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { transition, type WithdrawalEvent, type WithdrawalStatus } from './withdraw.rules.ts'

const USDT = CURRENCY_DECIMALS.USDT
const units = (v: string) => parseAmount(trimDecimal(v), USDT)!

export interface WithdrawalRow {
  id: number
  userId: number
  chainId: number
  toAddress: string
  amount: string
  fee: string
  status: WithdrawalStatus
  amountTransferId: number
  feeTransferId: number | null
  rawTx: string | null
  txHash: string | null
  txBlock: string | null
  reviewReason: string | null
  createdAt: Date
  updatedAt: Date
}

export const WITHDRAWAL_COLUMNS = `id::int, user_id::int AS "userId", chain_id::int AS "chainId", to_address AS "toAddress",
  amount::text, fee::text, status, amount_transfer_id::int AS "amountTransferId", fee_transfer_id::int AS "feeTransferId",
  raw_tx AS "rawTx", tx_hash AS "txHash", tx_block::text AS "txBlock", review_reason AS "reviewReason",
  created_at AS "createdAt", updated_at AS "updatedAt"`

export const toWithdrawal = (r: WithdrawalRow): Withdrawal => ({
  id: r.id,
  amount: trimDecimal(r.amount),
  fee: trimDecimal(r.fee),
  address: r.toAddress,
  status: r.status,
  txHash: r.txHash,
  reviewReason: r.reviewReason,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
})

type Queryable = Pick<pg.PoolClient, 'query'>

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
  const res = await q.query<WithdrawalRow>(
    `UPDATE withdrawals SET status = $2, updated_at = now(),
       reviewed_by = coalesce($3, reviewed_by), review_reason = coalesce($4, review_reason), failure = coalesce($5, failure),
       reviewed_at = CASE WHEN $3::bigint IS NULL THEN reviewed_at ELSE now() END
     WHERE id = $1 RETURNING ${WITHDRAWAL_COLUMNS}`,
    [row.id, t.to, set.reviewedBy ?? null, set.reviewReason ?? null, set.failure ?? null],
  )
  return res.rows[0]!
}

export function createWithdrawService(deps: {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
  chainId: () => number | undefined
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

  async function lockRow(q: Queryable, id: number): Promise<WithdrawalRow | undefined> {
    return (
      await q.query<WithdrawalRow>(
        `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE id = $1 FOR UPDATE`,
        [id],
      )
    ).rows[0]
  }

  return {
    /** Reserves amount + fee at once (two pending transfers) and records the request. */
    async request(
      user: { id: number; userName: string },
      params: { amount: string; address?: `0x${string}` | undefined; idempotencyKey: string },
    ): Promise<Withdrawal> {
      const s = await settings.get()
      const amount = units(params.amount)
      assertAmountWithinBound(s, 'USDT', amount)
      if (amount < units(s.withdrawMinUsdt))
        throw new AppError('amount_below_minimum', { detail: s.withdrawMinUsdt })
      const fee = feeFor(amount, { fixed: units(s.withdrawFeeFixedUsdt), rate: s.withdrawFeeRate })
      const to = (params.address ?? user.userName).toLowerCase()
      const existing = await pool.query<WithdrawalRow>(
        `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE user_id = $1 AND idempotency_key = $2`,
        [user.id, params.idempotencyKey],
      )
      if (existing.rows[0]) {
        const row = existing.rows[0]
        if (units(row.amount) !== amount || row.toAddress !== to)
          throw new AppError('idempotency_conflict')
        return toWithdrawal(row)
      }
      // Early and cheap; the ledger still refuses an overdraft itself under concurrency.
      if (amount + fee > (await ledger.available(user.id, 'usdt')))
        throw new AppError('insufficient_balance')
      const chainId = deps.chainId()
      if (!chainId) throw new AppError('service_unavailable', { detail: 'chain' })
      const accounts = await ledger.userAccountIds(user.id)
      const key = `withdraw:${user.id}:${params.idempotencyKey}`
      const legs: SqlLeg[] = [
        {
          kind: 'pending',
          debit: accounts.usdt,
          credit: await ledger.platformAccount('withdrawals_in_flight', 'USDT'),
          amount: formatAmount(amount, USDT),
          logType: 13,
        },
      ]
      if (fee > 0n) {
        legs.push({
          kind: 'pending',
          debit: accounts.usdt,
          credit: await ledger.platformAccount('fees', 'USDT', key),
          amount: formatAmount(fee, USDT),
          logType: 14,
        })
      }
      return inTransaction(async (q) => {
        const outcome = await ledger.apply(key, { to, amount: formatAmount(amount, USDT) }, legs, q)
        const res = await q.query<WithdrawalRow>(
          `INSERT INTO withdrawals (user_id, chain_id, to_address, amount, fee, status, idempotency_key, amount_transfer_id, fee_transfer_id)
           VALUES ($1, $2, $3, $4, $5, 0, $6, $7, $8)
           ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING ${WITHDRAWAL_COLUMNS}`,
          [
            user.id,
            chainId,
            to,
            formatAmount(amount, USDT),
            formatAmount(fee, USDT),
            params.idempotencyKey,
            outcome.transfers[0],
            outcome.transfers[1] ?? null,
          ],
        )
        if (res.rows[0]) return toWithdrawal(res.rows[0])
        // The same request, tapped twice: the first one's row is committed by now.
        const first = await q.query<WithdrawalRow>(
          `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE user_id = $1 AND idempotency_key = $2`,
          [user.id, params.idempotencyKey],
        )
        if (!first.rows[0] || units(first.rows[0].amount) !== amount)
          throw new AppError('idempotency_conflict')
        return toWithdrawal(first.rows[0])
      })
    },

    async mine(
      userId: number,
      page: { pageNum: number; pageSize: number },
    ): Promise<Page<Withdrawal>> {
      const [rows, total] = await Promise.all([
        pool.query<WithdrawalRow>(
          `SELECT ${WITHDRAWAL_COLUMNS} FROM withdrawals WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
          [userId, page.pageSize, (page.pageNum - 1) * page.pageSize],
        ),
        pool.query<{ n: number }>('SELECT count(*)::int AS n FROM withdrawals WHERE user_id = $1', [
          userId,
        ]),
      ])
      return { list: rows.rows.map(toWithdrawal), total: total.rows[0]!.n, ...page }
    },

    async cancel(userId: number, id: number): Promise<Withdrawal> {
      return inTransaction(async (q) => {
        const row = await lockRow(q, id)
        if (!row || row.userId !== userId) throw new AppError('not_found')
        return toWithdrawal(await applyWithdrawalEvent(q, ledger, row, 'cancel'))
      })
    },

    async review(
      operatorId: number,
      params: { id: number; decision: 'approve' | 'reject'; reason?: string | undefined },
    ): Promise<Withdrawal> {
      return inTransaction(async (q) => {
        const row = await lockRow(q, params.id)
        if (!row) throw new AppError('not_found')
        const event = params.decision === 'approve' ? 'approve' : 'reject'
        const after = await applyWithdrawalEvent(q, ledger, row, event, {
          reviewedBy: operatorId,
          ...(params.reason ? { reviewReason: params.reason } : {}),
        })
        await insertAudit(q, {
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
