import { z } from 'zod'
import { PageParams, intParam } from './common.ts'
import type { OperatorRole } from './operator.ts'
import type { SettlementRun } from './settlement.ts'
import type { Withdrawal } from './withdraw.ts'

/**
 * The operator console's contract (`admin/*`). Every route needs an operator token; the roles
 * each route admits are declared with it in routes.ts.
 */

/** Password plus the 6-digit code of the operator's authenticator app. */
export const AdminLoginParams = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(200),
  code: z
    .string({ error: 'totp_invalid' })
    .trim()
    .regex(/^\d{6}$/, 'totp_invalid'),
})
export type AdminLoginParams = z.input<typeof AdminLoginParams>

export interface AdminMe {
  username: string
  role: OperatorRole
}

/** What the console's first screen shows. */
export interface AdminDashboard {
  users: { total: number; today: number; robots: number }
  deposits: { count: number; usdt: string; today: string }
  withdrawals: { pending: number; pendingUsdt: string; approvedToday: number }
  lastSettlement: SettlementRun | null
  /** The newest ledger check (`ledger:verify` invariants) the server ran. */
  ledger: { ok: boolean; checkedAt: string | null; problems: string[] }
  /** Open alarms the jobs raised for operators, newest first. */
  alarms: AdminAlarm[]
  /**
   * Sign-ins of the last 7 days by message: Sign-In with Ethereum, or the legacy
   * `HOPE Login<ms>` (accepted while `legacyLoginMessage` is on, which `legacyAccepted` shows).
   */
  signIns: { days: number; siwe: number; legacy: number; legacyAccepted: boolean }
}

/**
 * One day's sign-ins by message (days in the settlement's time zone), e.g.
 * `{ day: '2026-11-28', siwe: 38, legacy: 2, legacyShare: 0.05 }`.
 */
export interface AdminSignInDay {
  /** `YYYY-MM-DD`. */
  day: string
  siwe: number
  legacy: number
  /** legacy / (siwe + legacy), from 0 to 1; null on a day without sign-ins. */
  legacyShare: number | null
}

/**
 * Sign-ins per day over the last `days` days, oldest first, today included, days without any
 * included: how much of the legacy `HOPE Login<ms>` (no site named) is still used, to know when
 * `legacyLoginMessage` (shown in `legacyAccepted`) can be turned off.
 */
export interface AdminSignInsByDay {
  days: number
  list: AdminSignInDay[]
  legacyAccepted: boolean
}

/**
 * A condition a job cannot settle by itself, e.g. `kind: 'payout_nonce_taken'`: another
 * transaction of the hot wallet used a payout's nonce, so that payout can never be mined.
 */
export interface AdminAlarm {
  id: number
  kind: string
  message: string
  /** What the job knew, e.g. `{ withdrawalId, txHash, nonce }`. */
  detail: Record<string, unknown>
  raisedAt: string
}

/**
 * Close an open alarm by hand, saying why. The chain scan's alarms (`payout_unknown`,
 * `payout_mismatch`, `unexplained_outflow`) never close by themselves: an operator who has
 * looked into one closes it here. Audited; an alarm already closed answers 409 `already_resolved`.
 * @example AdminResolveAlarmParams.parse({ id: '7', reason: 'test payout from the vault owner' })
 */
export const AdminResolveAlarmParams = z.object({
  id: intParam(1, 999_999_999),
  reason: z.string().trim().min(1).max(200),
})

/** An alarm an operator closed: when, by whom (their username) and why. */
export interface AdminResolvedAlarm extends AdminAlarm {
  resolvedAt: string
  resolvedBy: string
  resolution: string
}

/** A search over users by address (prefix or whole), nickname or referral code. */
export const AdminUsersParams = PageParams.extend({
  q: z.string().trim().max(64).optional(),
})

export interface AdminUser {
  id: number
  userName: string
  nickName: string
  referralCode: string
  level: number
  /** the inviter's address, null for the root */
  inviter: string | null
  location: number
  directPeople: number
  teamPeople: number
  isRobot: boolean
  nodes: { type: number; source: 'bought' | 'granted' }[]
  /** balances of the five accounts */
  balances: { usdt: string; community: string; shareholder: string; node: string; split: string }
  createdAt: string
}

/**
 * A user with the members directly under them (the tree view opens one level at a time), oldest
 * first, at most `pageSize` (100 by default) per page; `user.directPeople` counts them all.
 */
export const AdminUserTreeParams = z.object({
  userName: z.string().trim().min(1).max(64),
  pageNum: intParam(1, 1_000_000).default(1),
  pageSize: intParam(1, 100).default(100),
})
export interface AdminUserTree {
  user: AdminUser
  children: AdminUser[]
}

export const AdminWithdrawalsParams = PageParams.extend({
  status: intParam(0, 6).optional(),
  q: z.string().trim().max(64).optional(),
})

/** A withdrawal as the console lists it: also whose it is and who reviewed it. */
export interface AdminWithdrawal extends Withdrawal {
  userName: string
  reviewedBy: string | null
  /**
   * Whether the destination held contract code when the withdrawal was made; null when the
   * chain could not be asked.
   */
  contractDestination: boolean | null
  /**
   * Whether the request carried the member's wallet signature (EIP-712, verified when it was
   * made; needed away from the member's own wallet): false when it did not; null for a
   * withdrawal made before this was recorded, which may have been signed.
   */
  walletSigned: boolean | null
}

/** Approve or reject several pending withdrawals at once (ids comma-separated, at most 100). */
export const AdminBulkReviewParams = z.object({
  ids: z
    .string()
    .trim()
    .regex(/^\d{1,9}(,\d{1,9}){0,99}$/, 'invalid_params')
    .transform((s) => [...new Set(s.split(',').map(Number))]),
  decision: z.enum(['approve', 'reject']),
  reason: z.string().trim().max(200).optional(),
})

export interface AdminBulkReviewResult {
  /** ids whose review was recorded */
  done: number[]
  /** ids that were not pending (already reviewed, canceled) or unknown */
  skipped: number[]
}

/** failed: refused by the watcher (an amount past the bound), never credited; see its alarm. */
export const DEPOSIT_STATUSES = [
  'on_chain',
  'credited',
  'reorged',
  'unattributed',
  'failed',
] as const
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number]

/**
 * Chain deposits, newest first, optionally of one status; `q` is a transaction hash or an
 * address (the member's or the sender's, prefix or whole).
 */
export const AdminDepositsParams = PageParams.extend({
  q: z.string().trim().max(80).optional(),
  status: z.enum(DEPOSIT_STATUSES).optional(),
})

export interface AdminDeposit {
  id: number
  /** the credited member's address; for an unattributed deposit, the address it came from */
  userName: string
  txHash: string
  amount: string
  /** on_chain (waiting for confirmations), credited, reorged, unattributed (not a member) */
  status: DepositStatus
  confirmations: number
  blockNumber: string | null
  createdAt: string
}

/** One operator setting: its current value, the default, and who changed it last. */
/**
 * What values a setting takes, as the console explains it: a whole number or a decimal (given
 * as text) within min..max, true or false, one of `options`, text (of at most `maxLength`), or a
 * list of `length` (or at most `maxItems`) items each as `item` says.
 */
export interface SettingRange {
  kind: 'integer' | 'decimal' | 'boolean' | 'choice' | 'text' | 'list'
  min?: string
  max?: string
  options?: string[]
  maxLength?: number
  length?: number
  maxItems?: number
  item?: SettingRange
}

export interface AdminSetting {
  key: string
  /** JSON text of the value */
  value: string
  defaultValue: string
  updatedAt: string | null
  updatedBy: string | null
  range: SettingRange
}

export const AdminUpdateSettingParams = z.object({
  key: z.string().trim().min(1).max(64),
  /** the new value as JSON text ("0.005", "[\"100\",\"300\"]", "true") */
  value: z.string().min(1).max(10_000),
  reason: z.string().trim().min(1).max(200),
})

export const AdminSettingHistoryParams = PageParams.extend({
  key: z.string().trim().min(1).max(64),
})

export interface AdminSettingChange {
  id: number
  key: string
  before: string | null
  after: string
  changedBy: string
  reason: string | null
  changedAt: string
}

export const AdminAuditParams = PageParams.extend({
  action: z.string().trim().max(64).optional(),
})

export interface AdminAuditEntry {
  id: number
  operator: string
  action: string
  targetUser: string | null
  amount: string | null
  before: string | null
  after: string | null
  reason: string | null
  createdAt: string
}

export const AdminSettlementRunsParams = PageParams

/** One run of the ledger check (the invariants `npm run ledger:verify` checks). */
export interface AdminLedgerCheck {
  ok: boolean
  checkedAt: string
  /** one line per broken invariant, naming the account or transfer */
  problems: string[]
  accounts: number
  transfers: number
}
