import type {
  AdminAuditEntry,
  AdminBulkReviewResult,
  AdminDashboard,
  AdminDeposit,
  AdminLedgerCheck,
  AdminResolvedAlarm,
  AdminSetting,
  AdminSettingChange,
  AdminSignInsByDay,
  AdminUser,
  AdminUserTree,
  AdminWithdrawal,
  DepositStatus,
  Page,
} from '@hope/api'
import type pg from 'pg'
import { withAdvisoryLock, withAdvisoryLockWaiting } from '../../db/advisory-lock.ts'
import { closeAlarmByOperator, openAlarms } from '../alarm/alarm.service.ts'
import { AppError, isAppError } from '../../lib/app-error.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { SettlementService } from '../settlement/settlement.service.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import {
  SETTING_DEFAULTS,
  SETTING_SCHEMAS,
  isSettingKey,
  type SettingKey,
} from '../settings/settings.rules.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import type { WithdrawService } from '../withdraw/withdraw.service.ts'
import * as repo from './console.repository.ts'
import {
  SIGN_IN_DAYS_SHOWN,
  jsonText,
  likePattern,
  localDayStart,
  parseSettingValue,
  settingRange,
  signInDays,
} from './console.rules.ts'
import { recordAudit } from '../audit/audit.service.ts'
import type { Operator } from '../operator/operator.service.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

/** One ledger check at a time across processes. */
const LEDGER_CHECK_LOCK: [number, number] = [LOCK_KEYS.ledgerCheck, 1]

interface Paging {
  pageNum: number
  pageSize: number
}

/** The operator console's views over members, money, settings and the audit trail. */
/** The days the dashboard counts sign-ins over. */
const SIGN_IN_DAYS = 7

export function createAdminService(deps: {
  pool: pg.Pool
  settings: SettingsService
  withdrawals: WithdrawService
  settlement: SettlementService
  /** Sign-ins of the last `days` days by message (the user module's). */
  signIns: (days: number) => Promise<{ legacy: number; siwe: number }>
  /** Sign-ins in [from, to) per local day and message (the user module's). */
  signInsByDay: (
    range: { from: Date; to: Date },
    offsetMinutes: number,
  ) => Promise<{ day: string; siwe: number; legacy: number }[]>
  now?: () => number
}) {
  const { pool, settings, withdrawals, settlement } = deps
  const now = deps.now ?? Date.now

  async function runLedgerCheck(conn: pg.PoolClient): Promise<AdminLedgerCheck> {
    return inTransaction(conn, async (q) => {
      // The check reads the whole ledger (every account, every transfer): its statements run
      // past the connections' 5 s once the books are large.
      await q.query(`SET LOCAL statement_timeout = '5min'`)
      return repo.insertLedgerCheck(q, await verifyLedger(q))
    })
  }

  async function settingOf(key: SettingKey): Promise<AdminSetting> {
    const [current, stored] = await Promise.all([settings.get(), repo.storedSettings(pool, key)])
    return {
      key,
      value: jsonText(current[key]),
      defaultValue: jsonText(SETTING_DEFAULTS[key]),
      updatedAt: stored[0]?.updatedAt.toISOString() ?? null,
      updatedBy: stored[0]?.updatedBy ?? null,
      range: settingRange(key),
    }
  }

  return {
    async dashboard(): Promise<AdminDashboard> {
      const s = await settings.get()
      const since = localDayStart(now(), s.settlementUtcOffsetMinutes)
      const [counts, runs, check, alarms, signIns] = await Promise.all([
        repo.dashboardCounts(pool, since),
        settlement.runs({ pageNum: 1, pageSize: 1 }),
        repo.latestLedgerCheck(pool),
        openAlarms(pool),
        deps.signIns(SIGN_IN_DAYS),
      ])
      return {
        ...counts,
        lastSettlement: runs.list[0] ?? null,
        // Never checked yet is not "ok": the console says so until the first check has run.
        ledger: check
          ? { ok: check.ok, checkedAt: check.checkedAt, problems: check.problems }
          : { ok: false, checkedAt: null, problems: [] },
        alarms,
        signIns: { days: SIGN_IN_DAYS, ...signIns, legacyAccepted: s.legacyLoginMessage },
      }
    },

    /**
     * Sign-ins per day of the last 30 days (the settlement's days, today included) by message,
     * with the share of the legacy message: one grouped read of the sessions opened since the
     * first day began.
     */
    async signInsByDay(): Promise<AdminSignInsByDay> {
      const s = await settings.get()
      const offset = s.settlementUtcOffsetMinutes
      const today = localDayStart(now(), offset).getTime()
      const from = new Date(today - (SIGN_IN_DAYS_SHOWN - 1) * 86_400_000)
      const to = new Date(today + 86_400_000)
      const counted = await deps.signInsByDay({ from, to }, offset)
      return {
        days: SIGN_IN_DAYS_SHOWN,
        list: signInDays(counted, from, SIGN_IN_DAYS_SHOWN, offset),
        legacyAccepted: s.legacyLoginMessage,
      }
    },

    /**
     * Closes an open alarm with the operator's reason and the audit line in one transaction; the
     * dashboard no longer lists it. A second close of the same alarm (a repeated request
     * included) answers 409 `already_resolved`.
     */
    async resolveAlarm(
      operator: Operator,
      params: { id: number; reason: string },
    ): Promise<AdminResolvedAlarm> {
      const closed = await inTransaction(pool, async (q) => {
        const alarm = await closeAlarmByOperator(q, params.id, {
          operatorId: operator.id,
          reason: params.reason,
        })
        await recordAudit(q, {
          operatorId: operator.id,
          action: 'alarm_resolve',
          targetUserId: null,
          reason: params.reason,
          before: { id: alarm.id, kind: alarm.kind, message: alarm.message, detail: alarm.detail },
          after: { id: alarm.id, resolvedAt: alarm.resolvedAt.toISOString() },
        })
        return alarm
      })
      return {
        id: closed.id,
        kind: closed.kind,
        message: closed.message,
        detail: closed.detail,
        raisedAt: closed.raisedAt.toISOString(),
        resolvedAt: closed.resolvedAt.toISOString(),
        resolvedBy: operator.username,
        resolution: closed.resolution,
      }
    },

    /**
     * Runs the ledger check now (waiting for one already running elsewhere to finish) and keeps
     * its result.
     */
    async checkLedger(): Promise<AdminLedgerCheck> {
      return withAdvisoryLockWaiting(pool, LEDGER_CHECK_LOCK, runLedgerCheck)
    },

    /** The periodic check: skipped while another process runs one. */
    async checkLedgerTick(): Promise<{ problems: number } | { skipped: 'locked' }> {
      const check = await withAdvisoryLock(pool, LEDGER_CHECK_LOCK, runLedgerCheck)
      return check ? { problems: check.problems.length } : { skipped: 'locked' }
    },

    async users(params: Paging & { q?: string | undefined }): Promise<Page<AdminUser>> {
      const q = params.q?.trim()
      const search = q
        ? {
            prefix: likePattern(q.toLowerCase(), 'prefix'),
            code: q.toUpperCase(),
            contains: likePattern(q, 'contains'),
          }
        : null
      return { ...(await repo.searchUsers(pool, search, params)), ...page(params) }
    },

    async userTree(params: Paging & { userName: string }): Promise<AdminUserTree> {
      const user = await repo.userByName(pool, params.userName.toLowerCase())
      if (!user) throw new AppError('not_registered')
      return { user, children: await repo.childrenOf(pool, user.id, params) }
    },

    async withdrawals(
      params: Paging & { status?: number | undefined; q?: string | undefined },
    ): Promise<Page<AdminWithdrawal>> {
      const q = params.q?.trim()
      const result = await repo.listWithdrawals(
        pool,
        {
          status: params.status ?? null,
          prefix: q ? likePattern(q.toLowerCase(), 'prefix') : null,
        },
        params,
      )
      return { ...result, ...page(params) }
    },

    /**
     * Reviews each withdrawal by itself (the withdraw service's review, audited there); those
     * not pending review, still on hold (a new address), or unknown, are skipped and the rest
     * still go through.
     */
    async bulkReview(
      operator: Operator,
      params: { ids: number[]; decision: 'approve' | 'reject'; reason?: string | undefined },
    ): Promise<AdminBulkReviewResult> {
      const result: AdminBulkReviewResult = { done: [], skipped: [] }
      for (const id of params.ids) {
        try {
          await withdrawals.review(operator.id, {
            id,
            decision: params.decision,
            reason: params.reason,
          })
          result.done.push(id)
        } catch (e) {
          if (
            !isAppError(e) ||
            (e.reason !== 'withdrawal_state' &&
              e.reason !== 'not_found' &&
              e.reason !== 'withdrawal_on_hold')
          )
            throw e
          result.skipped.push(id)
        }
      }
      return result
    },

    async deposits(
      params: Paging & {
        q?: string | undefined
        status?: DepositStatus | undefined
      },
    ): Promise<Page<AdminDeposit>> {
      const q = params.q?.trim().toLowerCase()
      const isHash = !!q && /^0x[0-9a-f]{64}$/.test(q)
      const result = await repo.listDeposits(
        pool,
        {
          status: params.status ?? null,
          txHash: isHash ? q : null,
          prefix: q && !isHash ? likePattern(q, 'prefix') : null,
        },
        params,
      )
      return { ...result, ...page(params) }
    },

    async settings(): Promise<AdminSetting[]> {
      const [current, stored] = await Promise.all([settings.get(), repo.storedSettings(pool)])
      const byKey = new Map(stored.map((r) => [r.key, r]))
      return (Object.keys(SETTING_SCHEMAS) as SettingKey[]).map((key) => ({
        key,
        value: jsonText(current[key]),
        defaultValue: jsonText(SETTING_DEFAULTS[key]),
        updatedAt: byKey.get(key)?.updatedAt.toISOString() ?? null,
        updatedBy: byKey.get(key)?.updatedBy ?? null,
        range: settingRange(key),
      }))
    },

    /**
     * Checks the value against the setting's rules (nothing changes when it does not fit), then
     * writes it, its change record with the reason and the audit row in one transaction. This
     * process sees the new value at once, others within the settings cache time.
     */
    async updateSetting(
      operator: Operator,
      params: { key: string; value: string; reason: string },
    ): Promise<AdminSetting> {
      const parsed = parseSettingValue(params.key, params.value)
      if (!parsed.ok) throw new AppError(parsed.reason, { detail: params.key })
      await inTransaction(pool, async (q) => {
        const before = await settings.write(q, {
          key: parsed.key,
          value: parsed.value,
          changedBy: operator.username,
          reason: params.reason,
        })
        await recordAudit(q, {
          operatorId: operator.id,
          action: 'setting_update',
          targetUserId: null,
          reason: params.reason,
          before: { key: parsed.key, value: before === null ? null : JSON.parse(before) },
          after: { key: parsed.key, value: parsed.value },
        })
      })
      settings.invalidate()
      return settingOf(parsed.key)
    },

    async settingHistory(params: Paging & { key: string }): Promise<Page<AdminSettingChange>> {
      if (!isSettingKey(params.key)) throw new AppError('setting_unknown', { detail: params.key })
      return { ...(await repo.settingChanges(pool, params.key, params)), ...page(params) }
    },

    async audit(params: Paging & { action?: string | undefined }): Promise<Page<AdminAuditEntry>> {
      return {
        ...(await repo.auditEntries(pool, params.action || null, params)),
        ...page(params),
      }
    },
  }
}

const page = (p: Paging): Paging => ({ pageNum: p.pageNum, pageSize: p.pageSize })

export type AdminService = ReturnType<typeof createAdminService>
