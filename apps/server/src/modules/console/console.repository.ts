import {
  trimDecimal,
  type AdminAuditEntry,
  type AdminDeposit,
  type AdminLedgerCheck,
  type AdminSettingChange,
  type AdminUser,
  type AdminWithdrawal,
  type WithdrawalStatusCode,
} from '@hope/api'
import type pg from 'pg'
import type { VerifyReport } from '../ledger/ledger.verify.ts'
import { jsonText } from './console.rules.ts'

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>
interface Paging {
  pageNum: number
  pageSize: number
}
const offset = (p: Paging) => (p.pageNum - 1) * p.pageSize

/** The console's figures; `since` is the start of the business day. */
export async function dashboardCounts(q: Queryable, since: Date) {
  const res = await q.query<{
    usersTotal: number
    usersToday: number
    robots: number
    depositsCount: number
    depositsUsdt: string
    depositsToday: string
    pending: number
    pendingUsdt: string
    approvedToday: number
  }>(
    `SELECT
       (SELECT count(*)::int FROM users) AS "usersTotal",
       (SELECT count(*)::int FROM users WHERE created_at >= $1) AS "usersToday",
       (SELECT count(*)::int FROM users WHERE is_robot) AS robots,
       d.n AS "depositsCount", d.usdt AS "depositsUsdt", d.today AS "depositsToday",
       w.n AS pending, w.usdt AS "pendingUsdt",
       (SELECT count(*)::int FROM withdrawals WHERE reviewed_at >= $1 AND status IN (1, 2, 4, 5)) AS "approvedToday"
     FROM (SELECT count(*)::int AS n, coalesce(sum(amount), 0)::text AS usdt,
                  coalesce(sum(amount) FILTER (WHERE updated_at >= $1), 0)::text AS today
           FROM deposits WHERE status = 'credited') d,
          (SELECT count(*)::int AS n, coalesce(sum(amount), 0)::text AS usdt
           FROM withdrawals WHERE status = 0) w`,
    [since],
  )
  const r = res.rows[0]!
  return {
    users: { total: r.usersTotal, today: r.usersToday, robots: r.robots },
    deposits: {
      count: r.depositsCount,
      usdt: trimDecimal(r.depositsUsdt),
      today: trimDecimal(r.depositsToday),
    },
    withdrawals: {
      pending: r.pending,
      pendingUsdt: trimDecimal(r.pendingUsdt),
      approvedToday: r.approvedToday,
    },
  }
}

interface UserRow {
  id: number
  userName: string
  nickName: string
  referralCode: string
  level: number
  inviter: string | null
  location: number
  isRobot: boolean
  createdAt: Date
  directPeople: number
  teamPeople: number
  nodes: { type: number; source: 'bought' | 'granted' }[]
  balances: Record<string, string> | null
}

const USER_SELECT = `
  SELECT u.id::int, u.user_name AS "userName", u.nick_name AS "nickName", u.referral_code AS "referralCode",
         u.level, i.user_name AS inviter, u.location, u.is_robot AS "isRobot", u.created_at AS "createdAt",
         coalesce((SELECT d.members FROM direct_counts d WHERE d.user_id = u.id), 0)::int AS "directPeople",
         (SELECT coalesce(sum(t.people), 0)::int FROM team_stats t WHERE t.user_id = u.id) AS "teamPeople",
         coalesce((SELECT json_agg(json_build_object('type', n.type, 'source', n.source) ORDER BY n.type)
                   FROM node_holders n WHERE n.user_id = u.id), '[]'::json) AS nodes,
         (SELECT json_object_agg(a.kind, a.balance::text) FROM ledger_accounts a WHERE a.user_id = u.id) AS balances
  FROM users u LEFT JOIN users i ON i.id = u.inviter_id`

const toUser = (r: UserRow): AdminUser => {
  const b = (kind: string) => trimDecimal(r.balances?.[kind] ?? '0')
  return {
    id: r.id,
    userName: r.userName,
    nickName: r.nickName,
    referralCode: r.referralCode,
    level: r.level,
    inviter: r.inviter,
    location: r.location,
    directPeople: r.directPeople,
    teamPeople: r.teamPeople,
    isRobot: r.isRobot,
    nodes: r.nodes,
    balances: {
      usdt: b('usdt'),
      community: b('community'),
      shareholder: b('shareholder'),
      node: b('node'),
      split: b('split'),
    },
    createdAt: r.createdAt.toISOString(),
  }
}

/**
 * Members whose address starts with `search.prefix`, whose referral code is `search.code`, or
 * whose nickname contains `search.contains`; all members without a search. Newest first.
 */
export async function searchUsers(
  q: Queryable,
  search: { prefix: string; code: string; contains: string } | null,
  page: Paging,
): Promise<{ list: AdminUser[]; total: number }> {
  const where = search
    ? `WHERE u.user_name LIKE $1 OR u.referral_code = $2 OR u.nick_name ILIKE $3`
    : ''
  const args = search ? [search.prefix, search.code, search.contains] : []
  const n = args.length
  const [rows, total] = await Promise.all([
    q.query<UserRow>(
      `${USER_SELECT} ${where} ORDER BY u.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...args, page.pageSize, offset(page)],
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM users u ${where}`, args),
  ])
  return { list: rows.rows.map(toUser), total: total.rows[0]!.n }
}

export async function userByName(q: Queryable, userName: string): Promise<AdminUser | null> {
  const res = await q.query<UserRow>(`${USER_SELECT} WHERE u.user_name = $1`, [userName])
  return res.rows[0] ? toUser(res.rows[0]) : null
}

/** The members `userId` invited directly, oldest first. */
export async function childrenOf(q: Queryable, userId: number, page: Paging): Promise<AdminUser[]> {
  const res = await q.query<UserRow>(
    `${USER_SELECT} WHERE u.inviter_id = $1 ORDER BY u.id LIMIT $2 OFFSET $3`,
    [userId, page.pageSize, offset(page)],
  )
  return res.rows.map(toUser)
}

interface WithdrawalRow {
  id: number
  userName: string
  amount: string
  fee: string
  address: string
  status: WithdrawalStatusCode
  txHash: string | null
  reviewReason: string | null
  reviewedBy: string | null
  holdUntil: Date | null
  contractDestination: boolean | null
  walletSigned: boolean | null
  createdAt: Date
  updatedAt: Date
}

/** Withdrawals newest first, of one status and/or whose member or destination starts with `prefix`. */
export async function listWithdrawals(
  q: Queryable,
  filter: { status: number | null; prefix: string | null },
  page: Paging,
): Promise<{ list: AdminWithdrawal[]; total: number }> {
  const where = `WHERE ($1::smallint IS NULL OR w.status = $1)
                   AND ($2::text IS NULL OR u.user_name LIKE $2 OR w.to_address LIKE $2)`
  const from = `FROM withdrawals w JOIN users u ON u.id = w.user_id`
  const [rows, total] = await Promise.all([
    q.query<WithdrawalRow>(
      `SELECT w.id::int, u.user_name AS "userName", w.amount::text, w.fee::text, w.to_address AS address,
              w.status, w.tx_hash AS "txHash", w.review_reason AS "reviewReason", o.username AS "reviewedBy",
              w.hold_until AS "holdUntil", w.contract_destination AS "contractDestination",
              w.wallet_signed AS "walletSigned", w.created_at AS "createdAt", w.updated_at AS "updatedAt"
       ${from} LEFT JOIN operators o ON o.id = w.reviewed_by
       ${where} ORDER BY w.id DESC LIMIT $3 OFFSET $4`,
      [filter.status, filter.prefix, page.pageSize, offset(page)],
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n ${from} ${where}`, [
      filter.status,
      filter.prefix,
    ]),
  ])
  return {
    list: rows.rows.map((r) => ({
      ...r,
      amount: trimDecimal(r.amount),
      fee: trimDecimal(r.fee),
      holdUntil: r.holdUntil ? r.holdUntil.toISOString() : null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    })),
    total: total.rows[0]!.n,
  }
}

interface DepositRow {
  id: number
  userName: string
  txHash: string
  amount: string
  status: AdminDeposit['status']
  confirmations: number
  blockNumber: string | null
  createdAt: Date
}

/**
 * Chain deposits newest first: of one status, and with the transaction hash `filter.txHash` or
 * a member or sending address starting with `filter.prefix`. Confirmations count up to the
 * block the watcher has scanned.
 */
export async function listDeposits(
  q: Queryable,
  filter: { status: string | null; txHash: string | null; prefix: string | null },
  page: Paging,
): Promise<{ list: AdminDeposit[]; total: number }> {
  const from = `FROM deposits d LEFT JOIN users u ON u.id = d.user_id`
  const where = `WHERE ($1::text IS NULL OR d.status = $1)
                   AND ($2::text IS NULL OR d.tx_hash = $2)
                   AND ($3::text IS NULL OR u.user_name LIKE $3 OR d.from_address LIKE $3)`
  const args = [filter.status, filter.txHash, filter.prefix]
  const [rows, total] = await Promise.all([
    q.query<DepositRow>(
      `SELECT d.id::int, coalesce(u.user_name, d.from_address) AS "userName", d.tx_hash AS "txHash",
              d.amount::text, d.status,
              CASE WHEN d.status = 'reorged' OR c.block_number IS NULL THEN 0
                   ELSE greatest(0, c.block_number - d.block_number + 1)::int END AS confirmations,
              CASE WHEN d.status = 'reorged' THEN NULL ELSE d.block_number::text END AS "blockNumber",
              d.created_at AS "createdAt"
       ${from} LEFT JOIN chain_cursors c ON c.chain_id = d.chain_id
       ${where} ORDER BY d.id DESC LIMIT $4 OFFSET $5`,
      [...args, page.pageSize, offset(page)],
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n ${from} ${where}`, args),
  ])
  return {
    list: rows.rows.map((r) => ({
      ...r,
      amount: trimDecimal(r.amount),
      createdAt: r.createdAt.toISOString(),
    })),
    total: total.rows[0]!.n,
  }
}

export interface StoredSetting {
  key: string
  /** JSON text */
  value: string
  updatedAt: Date
  updatedBy: string
}

export async function storedSettings(q: Queryable, key?: string): Promise<StoredSetting[]> {
  const res = await q.query<StoredSetting>(
    `SELECT key, value::text AS value, updated_at AS "updatedAt", updated_by AS "updatedBy"
     FROM settings WHERE $1::text IS NULL OR key = $1`,
    [key ?? null],
  )
  return res.rows
}

export async function settingChanges(
  q: Queryable,
  key: string,
  page: Paging,
): Promise<{ list: AdminSettingChange[]; total: number }> {
  const [rows, total] = await Promise.all([
    q.query<{
      id: number
      key: string
      before: string | null
      after: string
      changedBy: string
      reason: string | null
      changedAt: Date
    }>(
      `SELECT id::int, key, old_value::text AS before, new_value::text AS after, changed_by AS "changedBy",
              reason, changed_at AS "changedAt"
       FROM setting_changes WHERE key = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
      [key, page.pageSize, offset(page)],
    ),
    q.query<{ n: number }>('SELECT count(*)::int AS n FROM setting_changes WHERE key = $1', [key]),
  ])
  return {
    list: rows.rows.map((r) => ({
      ...r,
      before: r.before === null ? null : jsonText(JSON.parse(r.before)),
      after: jsonText(JSON.parse(r.after)),
      changedAt: r.changedAt.toISOString(),
    })),
    total: total.rows[0]!.n,
  }
}

export async function auditEntries(
  q: Queryable,
  action: string | null,
  page: Paging,
): Promise<{ list: AdminAuditEntry[]; total: number }> {
  const where = 'WHERE ($1::text IS NULL OR a.action = $1)'
  const [rows, total] = await Promise.all([
    q.query<{
      id: number
      operator: string
      action: string
      targetUser: string | null
      amount: string | null
      before: string | null
      after: string | null
      reason: string
      createdAt: Date
    }>(
      `SELECT a.id::int, o.username AS operator, a.action, u.user_name AS "targetUser", a.amount::text,
              a.before::text, a.after::text, a.reason, a.created_at AS "createdAt"
       FROM operator_audit a JOIN operators o ON o.id = a.operator_id
       LEFT JOIN users u ON u.id = a.target_user_id
       ${where} ORDER BY a.id DESC LIMIT $2 OFFSET $3`,
      [action, page.pageSize, offset(page)],
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM operator_audit a ${where}`, [action]),
  ])
  return {
    list: rows.rows.map((r) => ({
      ...r,
      amount: r.amount === null ? null : trimDecimal(r.amount),
      before: r.before === null ? null : jsonText(JSON.parse(r.before)),
      after: r.after === null ? null : jsonText(JSON.parse(r.after)),
      reason: r.reason === '' ? null : r.reason,
      createdAt: r.createdAt.toISOString(),
    })),
    total: total.rows[0]!.n,
  }
}

interface LedgerCheckRow {
  ok: boolean
  problems: string[]
  accounts: number
  transfers: string
  checkedAt: Date
}
const toLedgerCheck = (r: LedgerCheckRow): AdminLedgerCheck => ({
  ok: r.ok,
  checkedAt: r.checkedAt.toISOString(),
  problems: r.problems,
  accounts: r.accounts,
  transfers: Number(r.transfers),
})
const CHECK_COLUMNS = `ok, problems, accounts, transfers::text, checked_at AS "checkedAt"`

/** Stores a check's result and forgets those older than 90 days. */
export async function insertLedgerCheck(
  q: Queryable,
  report: VerifyReport,
): Promise<AdminLedgerCheck> {
  const res = await q.query<LedgerCheckRow>(
    `INSERT INTO ledger_checks (ok, problems, accounts, transfers) VALUES ($1, $2::jsonb, $3, $4)
     RETURNING ${CHECK_COLUMNS}`,
    [
      report.problems.length === 0,
      JSON.stringify(report.problems),
      report.accounts,
      report.transfers,
    ],
  )
  await q.query(`DELETE FROM ledger_checks WHERE checked_at < now() - interval '90 days'`)
  return toLedgerCheck(res.rows[0]!)
}

export async function latestLedgerCheck(q: Queryable): Promise<AdminLedgerCheck | null> {
  const res = await q.query<LedgerCheckRow>(
    `SELECT ${CHECK_COLUMNS} FROM ledger_checks ORDER BY checked_at DESC, id DESC LIMIT 1`,
  )
  return res.rows[0] ? toLedgerCheck(res.rows[0]) : null
}
