import {
  formatAmount,
  parseAmount,
  trimDecimal,
  type AdminWithdrawal,
  type Page,
  type SettlementRun,
  type RedeemResult,
  type Withdrawal,
} from '@hope/api'
import { randomInt } from 'node:crypto'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, onTestFailed, test } from 'vitest'
import { DEMO_ROOT } from '../../apps/server/src/db/seed.ts'
import { generateEconomy } from '../../apps/server/test-support/settlement.generate.ts'
import { settlementDayDue } from '../../apps/server/src/modules/settlement/settlement.rules.ts'
import {
  allowFreshPayouts,
  call,
  credit,
  inParallel,
  newKey,
  ok,
  registerUser,
  setSetting,
  succeeded,
  type Answer,
  type Operators,
  type User,
} from './support/api.ts'
import { chainReconcile, ledgerVerify, usdtUnits, waitForCount } from './support/checks.ts'
import { disposeWithSummary, startWithOperators } from './support/suite.ts'
import { HopeServer, sleep } from './support/server.ts'

const CLIENTS = 64
/** FAULTS_LOAD_SECONDS runs a longer (or shorter) load phase. */
const LOAD_MS = Number(process.env.FAULTS_LOAD_SECONDS ?? 60) * 1_000
const FUNDING_USDT = 10_000_000_000n // 10,000 USDT
const FUNDING_HOPE = '1000'
const WITHDRAW_FEE = 1_000_000n
/** Withdrawals a client asks for at most: each is a payout the chain must confirm. */
const WITHDRAWALS_EACH = 2
/** Members settled by the run in the middle of the load (their own tree under the root). */
const SETTLED_MEMBERS = 2_000
const SETTLED_POSITIONS = 16_000

let server: HopeServer
let ops: Operators
const users: User[] = []
/** Each member's downline, by index into `users`. */
const downline: number[][] = []

beforeAll(async () => {
  server = await HopeServer.create()
  ops = await startWithOperators(server)
  await setSetting(server, ops, 'authRateLimitPerIp', '100000')
  await allowFreshPayouts(server, ops)
  // A tree of four under each member: member i's inviter is member (i - 1) / 4.
  users.push(await registerUser(server, DEMO_ROOT.userName))
  while (users.length < CLIENTS) {
    const from = users.length
    // members whose inviter is already registered: (i - 1) / 4 < from
    const count = Math.min(CLIENTS - from, 3 * from + 1)
    const made = await inParallel(
      Array.from({ length: count }, (_, k) => from + k),
      8,
      (i) => registerUser(server, users[Math.floor((i - 1) / 4)]!.userName),
    )
    users.push(...made)
  }
  for (let i = 0; i < CLIENTS; i++) {
    downline[i] = []
    for (let j = i + 1; j < CLIENTS; j++) {
      for (let a = j; a > 0; a = Math.floor((a - 1) / 4)) {
        if (Math.floor((a - 1) / 4) === i) {
          downline[i]!.push(j)
          break
        }
      }
    }
  }
  await inParallel(users, 8, async (u) => {
    await credit(server, ops, u.userName, formatAmount(FUNDING_USDT, 6))
    await credit(server, ops, u.userName, FUNDING_HOPE, 'community')
  })
  const pool = server.openPool()
  try {
    await generateEconomy(pool, {
      users: SETTLED_MEMBERS,
      positions: SETTLED_POSITIONS,
      prefix: 'load',
    })
    await pool.query(`UPDATE stake_positions SET created_at = now() - interval '5 days'`)
  } finally {
    await pool.end()
  }
})

afterAll(async () => {
  await disposeWithSummary(server, 'load')
})

interface Tally {
  requests: number
  byPath: Map<string, number>
  /** answers other than a success: `status reason` → count */
  refused: Map<string, number>
  fivexx: Answer<unknown>[]
}

function count(t: Tally, path: string, a: Answer<unknown>): void {
  t.requests += 1
  t.byPath.set(path, (t.byPath.get(path) ?? 0) + 1)
  if (succeeded(a)) return
  const key = `${a.status} ${(a.body as { reason?: string } | null)?.reason ?? a.error}`
  t.refused.set(key, (t.refused.get(key) ?? 0) + 1)
  if (a.status >= 500 || a.status <= 0) t.fivexx.push(a)
}

test('64 clients mixing transfers, withdrawals, redemptions and a settlement for 60 s', async () => {
  onTestFailed(() => console.error(server.output(20_000)))
  const t: Tally = { requests: 0, byPath: new Map(), refused: new Map(), fivexx: [] }
  // What each member's USDT and HOPE should be, from what the app answered.
  const usdt = users.map(() => FUNDING_USDT)
  const hope = users.map(() => parseAmount(FUNDING_HOPE, 18)!)
  const withdrawals: { user: number; id: number; units: bigint; canceled?: boolean }[] = []
  let redeemedNet = 0n
  let transfers = 0
  let redemptions = 0
  const deadline = Date.now() + LOAD_MS

  const send = async <T>(path: string, params: Record<string, string>, token: string) => {
    const a = await call<T>(server.baseUrl, path, params, { token, timeoutMs: 30_000 })
    count(t, path, a)
    return a
  }

  const client = async (i: number) => {
    const me = users[i]!
    while (Date.now() < deadline) {
      const roll = randomInt(0, 100)
      if (roll < 40 && !downline[i]!.length) {
        await send('userAccount/balanceDetail', {}, me.token)
      } else if (roll < 40) {
        const to = downline[i]![randomInt(0, downline[i]!.length)]!
        const units = 1_000_000n + BigInt(randomInt(0, 9_000_000))
        const a = await send(
          'userAccount/transfer',
          {
            address: users[to]!.account.address,
            amount: formatAmount(units, 6),
            idempotencyKey: newKey('load'),
          },
          me.token,
        )
        if (succeeded(a)) {
          usdt[i]! -= units
          usdt[to]! += units
          transfers += 1
        }
      } else if (roll < 42 && withdrawals.filter((w) => w.user === i).length < WITHDRAWALS_EACH) {
        const units = 10_000_000n + BigInt(randomInt(0, 10_000_000))
        const a = await send<Withdrawal>(
          'userAccount/withdraw',
          {
            amount: formatAmount(units, 6),
            address: privateKeyToAccount(generatePrivateKey()).address,
            idempotencyKey: newKey('load'),
          },
          me.token,
        )
        if (succeeded(a)) withdrawals.push({ user: i, id: a.body!.data.id, units })
      } else if (roll < 43 && withdrawals.some((w) => w.user === i && !w.canceled)) {
        // Cancel one of mine: refused (409 withdrawal_state) once an operator got to it first.
        const mine = withdrawals.filter((w) => w.user === i && !w.canceled)
        const w = mine[randomInt(0, mine.length)]!
        const a = await send('userAccount/cancelWithdraw', { id: String(w.id) }, me.token)
        if (succeeded(a)) w.canceled = true
      } else if (roll < 64) {
        const units = parseAmount('1', 18)! + BigInt(randomInt(0, 1_000_000)) * 10n ** 12n
        const a = await send<RedeemResult>(
          'game/sqChange',
          { amount: formatAmount(units, 18), idempotencyKey: newKey('load') },
          me.token,
        )
        if (succeeded(a)) {
          hope[i]! -= units
          usdt[i]! += usdtUnits(a.body!.data.net)
          redeemedNet += usdtUnits(a.body!.data.net)
          redemptions += 1
        }
      } else {
        const reads = ['userAccount/balance', 'game/info', 'userAccount/myWithDraw']
        await send(reads[randomInt(0, reads.length)]!, {}, me.token)
      }
    }
  }

  /** The finance operator reviews what is pending every second: most approved, some rejected. */
  const reviewer = async () => {
    while (Date.now() < deadline) {
      await sleep(1_000)
      const page = await call<Page<AdminWithdrawal>>(
        server.baseUrl,
        'admin/withdrawals',
        { status: '0', pageSize: '100' },
        { token: ops.finance },
      )
      count(t, 'admin/withdrawals', page)
      if (!succeeded(page) || !page.body!.data.list.length) continue
      const ids = page.body!.data.list.map((w) => w.id)
      const reject = ids.filter((id) => id % 10 === 0)
      const approve = ids.filter((id) => id % 10 !== 0)
      for (const [decision, list] of [
        ['approve', approve],
        ['reject', reject],
      ] as const) {
        if (!list.length) continue
        const a = await call(
          server.baseUrl,
          'admin/bulkReviewWithdraw',
          { ids: list.join(','), decision },
          { token: ops.finance },
        )
        count(t, 'admin/bulkReviewWithdraw', a)
      }
    }
  }

  /** The day's settlement, run a third of the way in, amid the load. */
  const settlement = async () => {
    await sleep(LOAD_MS / 3)
    const day = settlementDayDue(Date.now(), 480, '00:05')
    const started = Date.now()
    const a = await call<SettlementRun>(
      server.baseUrl,
      'admin/settle',
      { day },
      { token: ops.finance, timeoutMs: 120_000 },
    )
    count(t, 'admin/settle', a)
    return { run: a.body?.data, ms: Date.now() - started }
  }

  const started = Date.now()
  const [, , settled] = await Promise.all([
    inParallel(
      users.map((_, i) => i),
      CLIENTS,
      client,
    ),
    reviewer(),
    settlement(),
  ])
  const loadMs = Date.now() - started

  expect(t.fivexx).toEqual([])
  expect(settled.run?.status).toBe('done')
  expect(settled.run?.positions).toBe(SETTLED_POSITIONS)
  // Every refusal is one the load provokes on purpose: a cancel that came too late.
  expect([...t.refused.keys()].filter((k) => k !== '409 withdrawal_state')).toEqual([])

  // Close the books: the rest reviewed, every approved withdrawal paid and completed.
  const pool = server.openPool()
  try {
    for (;;) {
      const pending = await ok<Page<AdminWithdrawal>>(
        server.baseUrl,
        'admin/withdrawals',
        { status: '0', pageSize: '100' },
        ops.finance,
      )
      if (!pending.list.length) break
      await ok(
        server.baseUrl,
        'admin/bulkReviewWithdraw',
        { ids: pending.list.map((w) => w.id).join(','), decision: 'approve' },
        ops.finance,
      )
    }
    await waitForCount(
      pool,
      'every approved withdrawal to complete',
      'SELECT count(*)::int AS n FROM withdrawals WHERE status IN (0, 1, 5)',
      (n) => n === 0,
      120_000,
      500,
    )
    const final = await pool.query<{ id: number; status: number }>(
      'SELECT id::int, status FROM withdrawals',
    )
    const statusOf = new Map(final.rows.map((r) => [r.id, r.status]))
    let paidOut = 0n
    let completed = 0
    for (const w of withdrawals) {
      const status = statusOf.get(w.id)
      expect([2, 3, 6]).toContain(status)
      if (status === 2) {
        usdt[w.user]! -= w.units + WITHDRAW_FEE
        paidOut += w.units
        completed += 1
      }
    }
    const rows = await pool.query<{ user_name: string; kind: string; balance: string }>(
      `SELECT u.user_name, a.kind, a.balance::text AS balance FROM users u
         JOIN ledger_accounts a ON a.user_id = u.id AND a.kind IN ('usdt', 'community')
        WHERE u.user_name = ANY ($1::text[])`,
      [users.map((u) => u.userName)],
    )
    const balance = new Map(rows.rows.map((r) => [`${r.user_name}:${r.kind}`, r.balance]))
    let breaks = 0
    users.forEach((u, i) => {
      const gotUsdt = usdtUnits(balance.get(`${u.userName}:usdt`)!)
      const gotHope = parseAmount(trimDecimal(balance.get(`${u.userName}:community`)!), 18)
      if (gotUsdt !== usdt[i] || gotHope !== hope[i]) breaks += 1
      expect(gotUsdt).toBe(usdt[i])
      expect(gotHope).toBe(hope[i])
    })
    const verified = await ledgerVerify(server)
    expect(verified).toMatch(/ledger OK/)
    expect(await chainReconcile(server)).toMatch(/reconciliation clean/)
    // The members' money as a whole: what was funded, less what left for the chain (amount and
    // fee), plus what redemptions paid; transfers between members change nothing.
    const total = users.reduce((sum, u) => sum + usdtUnits(balance.get(`${u.userName}:usdt`)!), 0n)
    let withdrawn = 0n
    for (const w of withdrawals) if (statusOf.get(w.id) === 2) withdrawn += w.units + WITHDRAW_FEE
    expect(total).toBe(FUNDING_USDT * BigInt(CLIENTS) - withdrawn + redeemedNet)
    const perPath = [...t.byPath.entries()].map(([p, n]) => `${p} ${n}`).join(', ')
    console.info(
      `[faults] load: ${CLIENTS} clients for ${Math.round(loadMs / 1000)} s: ${t.requests} requests served ` +
        `(${Math.round(t.requests / (loadMs / 1000))}/s; ${perPath}); 5xx: ${t.fivexx.length}; ` +
        `refused on purpose: ${[...t.refused.entries()].map(([k, n]) => `${k} ×${n}`).join(', ') || 'none'}; ` +
        `${transfers} transfers, ${withdrawals.length} withdrawals (${completed} paid on chain, ${formatAmount(paidOut, 6)} USDT), ` +
        `${redemptions} redemptions, settlement of ${settled.run?.positions} positions in ${settled.ms} ms; ` +
        `members' USDT ${formatAmount(total, 6)} = funding ${formatAmount(FUNDING_USDT * BigInt(CLIENTS), 6)} − withdrawn ` +
        `${formatAmount(withdrawn, 6)} + redeemed ${formatAmount(redeemedNet, 6)}, exact per member; ` +
        `invariant breaks: ${breaks}; ${verified}`,
    )
  } finally {
    await pool.end()
  }
})
