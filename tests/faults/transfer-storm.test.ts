import { formatAmount, type TransferResult } from '@hope/api'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  credit,
  inParallel,
  registerLine,
  succeeded,
  type Answer,
  type User,
} from './support/api.ts'
import { balancesAfter, ledgerVerify, userBalances } from './support/checks.ts'
import { disposeWithSummary, startWithOperators } from './support/suite.ts'
import { planStorm, sendPlanned, type PlannedTransfer } from './support/traffic.ts'
import { HopeServer, waitFor } from './support/server.ts'

const USERS = 10
const FUNDING = 500_000_000n // 500 USDT each, in micro-units
const TRANSFERS = 360
const CONCURRENCY = 32
/** The app is killed once this many transfers have been answered. */
const KILL_AFTER = 120

let server: HopeServer
const users: User[] = []

beforeAll(async () => {
  server = await HopeServer.create()
  const ops = await startWithOperators(server)
  users.push(...(await registerLine(server, USERS)))
  await inParallel(users, 4, (u) => credit(server, ops, u.userName, formatAmount(FUNDING, 6)))
})

afterAll(async () => {
  await disposeWithSummary(server, 'transfer storm')
})

test('killed with its database in a transfer storm, every transfer happens once after retries', async () => {
  // Each sender sends less than it was funded, so every transfer succeeds in any order.
  const plan = planStorm(TRANSFERS, USERS)
  const send = (p: PlannedTransfer) => sendPlanned(server, users, p)

  let answered = 0
  let answeredAtKill = 0
  let killing: Promise<void> | null = null
  const first: Answer<TransferResult>[] = await inParallel(plan, CONCURRENCY, async (p) => {
    const a = await send(p)
    if (a.status > 0 && ++answered >= KILL_AFTER && !killing) {
      answeredAtKill = answered
      // The whole process group: the app, its PostgreSQL and its Anvil die at once.
      killing = server.kill('SIGKILL', { group: true })
    }
    return a
  })
  await killing
  expect(server.running).toBe(false)
  await waitFor('PostgreSQL to be gone', () => server.postmasterPid() === null, 10_000, 50)
  const acknowledged = first.filter(succeeded).length
  const unanswered = first.filter((a) => a.status <= 0).length
  // Nothing but a success or a dropped connection: the kill never shows as a 4xx or 5xx.
  expect(first.filter((a) => a.status > 0 && !succeeded(a))).toEqual([])
  expect(unanswered).toBeGreaterThan(0)

  await server.start()
  const retried = await inParallel(plan, CONCURRENCY, send)
  let replayed = 0
  retried.forEach((a, i) => {
    expect(succeeded(a), `retry ${i}: ${a.status} ${JSON.stringify(a.body)}`).toBe(true)
    const before = first[i]!
    if (succeeded(before)) {
      // What was acknowledged before the kill was committed: the retry only replays it.
      expect(a.body!.data.replayed).toBe(true)
      expect(a.body!.data.transferId).toBe(before.body!.data.transferId)
    }
    if (a.body!.data.replayed) replayed += 1
  })

  // Exact totals: every planned transfer moved its amount once.
  const expected = balancesAfter(
    users.map(() => FUNDING),
    plan,
  )
  const pool = server.openPool()
  try {
    const balances = await userBalances(
      pool,
      users.map((u) => u.userName),
    )
    users.forEach((u, i) => expect(balances.get(u.userName)?.balance).toBe(expected[i]))
    const total = [...balances.values()].reduce((t, b) => t + b.balance, 0n)
    expect(total).toBe(FUNDING * BigInt(USERS))
    const moved = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_transfers WHERE request_key LIKE 'transfer:%' AND leg = 0`,
    )
    expect(moved.rows[0]!.n).toBe(TRANSFERS)
  } finally {
    await pool.end()
  }
  const verified = await ledgerVerify(server)
  expect(verified).toMatch(/ledger OK/)
  console.info(
    `[faults] transfer storm: ${TRANSFERS} transfers by ${CONCURRENCY} clients, app with its PostgreSQL and Anvil killed after ${answeredAtKill} answers ` +
      `(${acknowledged} acknowledged, ${unanswered} cut off); after restart ${TRANSFERS} retries: ` +
      `${replayed} replayed, ${TRANSFERS - replayed} moved now; breaks found: 0; ${verified}`,
  )
})
