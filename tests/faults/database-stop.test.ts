import { reasonMessage } from '@hope/api'
import { afterAll, beforeAll, expect, onTestFailed, test } from 'vitest'
import { credit, inParallel, registerLine, succeeded, type User } from './support/api.ts'
import { balancesAfter, ledgerVerify, userBalances } from './support/checks.ts'
import { freezePostgres, startPostgres, stopPostgres, thawPostgres } from './support/postgres.ts'
import { disposeWithSummary, startWithOperators } from './support/suite.ts'
import { HopeServer, isAlive, sleep, waitFor } from './support/server.ts'
import { Traffic, type Sample } from './support/traffic.ts'

const USERS = 6
const FUNDING = '100000' // USDT each
const CLIENTS = 8
/** Longer than any answer may take: a request still open after this is a hang. */
const CLIENT_TIMEOUT_MS = 40_000
/** The longest an answer may take while the database does not answer. */
const ANSWER_WITHIN_MS = 15_000
const OUTAGE_MS = 20_000

let server: HopeServer
const users: User[] = []
let restartedPostgres: number | null = null
const report: string[] = []

beforeAll(async () => {
  server = await HopeServer.create()
  const ops = await startWithOperators(server)
  users.push(...(await registerLine(server, USERS)))
  await inParallel(users, 3, (u) => credit(server, ops, u.userName, FUNDING))
})

afterAll(async () => {
  // A server started by the test is not the app's child: stop it here.
  if (restartedPostgres && isAlive(restartedPostgres)) process.kill(restartedPostgres, 'SIGINT')
  await disposeWithSummary(server, 'PostgreSQL stopped', report)
})

/** Checks the answers given while the database was away, and returns a summary. */
function judgeOutage(samples: Sample[], from: number, to: number) {
  const during = samples.filter((s) => s.at >= from && s.at < to)
  const unavailable = during.filter((s) => s.status === 503)
  const message = reasonMessage('service_unavailable', 'en')
  for (const s of unavailable) {
    expect(s).toMatchObject({ code: 503, reason: 'service_unavailable', msg: message })
  }
  // No hang, no dropped connection, no 500: an answer, and only a success or a 503.
  const bad = samples.filter(
    (s) => s.status <= 0 || (s.status >= 500 && s.status !== 503) || s.ms > ANSWER_WITHIN_MS,
  )
  expect(bad).toEqual([])
  expect(unavailable.length).toBeGreaterThan(0)
  return {
    during: during.length,
    unavailable: unavailable.length,
    slowestMs: Math.max(0, ...during.map((s) => s.ms)),
  }
}

/** Waits until the app answers successfully again by itself; ms it took. */
async function recovery(traffic: Traffic, since: number): Promise<number> {
  const ok = await waitFor(
    'the app to recover',
    () =>
      traffic.samples.find(
        (s) => s.at >= since && s.status === 200 && s.path === 'userAccount/transfer',
      ),
    30_000,
    100,
  )
  return ok.at + ok.ms - since
}

async function balancesNow(): Promise<bigint[]> {
  const pool = server.openPool()
  try {
    const balances = await userBalances(
      pool,
      users.map((u) => u.userName),
    )
    return users.map((u) => balances.get(u.userName)!.balance)
  } finally {
    await pool.end()
  }
}

/** Every transfer, retried with its key, happened exactly once: balances exact, ledger clean. */
async function settleTransfers(traffic: Traffic, before: bigint[]): Promise<{ replayed: number }> {
  const retried = await inParallel(traffic.transfers, 8, (t) => traffic.sendTransfer(t))
  retried.forEach((a, i) =>
    expect(succeeded(a), `retry ${i}: ${a.status} ${JSON.stringify(a.body)}`).toBe(true),
  )
  expect(await balancesNow()).toEqual(balancesAfter(before, traffic.transfers))
  expect(await ledgerVerify(server)).toMatch(/ledger OK/)
  return {
    replayed: retried.filter((a) => (a.body?.data as { replayed?: boolean })?.replayed).length,
  }
}

/** Client traffic started on the app, with the balances before it. */
async function underLoad(): Promise<{ before: bigint[]; traffic: Traffic }> {
  onTestFailed(() => console.error(server.output(20_000)))
  const before = await balancesNow()
  const traffic = new Traffic(server, users, {
    clients: CLIENTS,
    lan: 'en_US',
    timeoutMs: CLIENT_TIMEOUT_MS,
  }).start()
  await sleep(2_000)
  return { before, traffic }
}

/**
 * After an outage from `from` to `to` (ms into the traffic): how soon the app recovered, the
 * traffic stopped, the answers during the outage judged and every transfer settled.
 */
async function afterOutage(traffic: Traffic, before: bigint[], from: number, to: number) {
  const recoveredMs = await recovery(traffic, to)
  await sleep(2_000)
  await traffic.stop()
  expect(server.running).toBe(true)
  const outage = judgeOutage(traffic.samples, from, to)
  const { replayed } = await settleTransfers(traffic, before)
  return { recoveredMs, outage, replayed }
}

test('PostgreSQL frozen under load: 503 with a translated message, then recovery by itself', async () => {
  const { before, traffic } = await underLoad()
  const frozenAt = traffic.now()
  const pids = freezePostgres(server)
  await sleep(OUTAGE_MS)
  const thawedAt = traffic.now()
  thawPostgres(pids)
  const { recoveredMs, outage, replayed } = await afterOutage(traffic, before, frozenAt, thawedAt)
  report.push(
    `[faults] PostgreSQL frozen (SIGSTOP of ${pids.length} processes) for ${OUTAGE_MS / 1000} s under ${CLIENTS} clients: ` +
      `${traffic.samples.length} requests served, ${outage.during} sent during the outage, ${outage.unavailable} answered 503 ` +
      `(translated, slowest answer ${outage.slowestMs} ms), 0 hangs, 0 5xx other than 503; recovered ${recoveredMs} ms after it returned; ` +
      `${traffic.transfers.length} transfers retried with their keys: ${replayed} replayed, totals exact; breaks found: 0`,
  )
})

test('PostgreSQL stopped under load: 503 with a translated message, then recovery by itself', async () => {
  const { before, traffic } = await underLoad()
  const stoppedAt = traffic.now()
  const command = await stopPostgres(server)
  await sleep(OUTAGE_MS / 2)
  const returnedAt = traffic.now()
  restartedPostgres = await startPostgres(server, command)
  const { recoveredMs, outage, replayed } = await afterOutage(
    traffic,
    before,
    stoppedAt,
    returnedAt,
  )
  // The server the app started is gone: stopping the app does not wait on it.
  const stopped = await server.stop()
  // 143: the embedded database's own SIGTERM hook ends the process once it has stopped it.
  expect([0, 143]).toContain(stopped.code)
  expect(stopped.ms).toBeLessThan(10_000)
  report.push(
    `[faults] PostgreSQL stopped (fast shutdown) for ${OUTAGE_MS / 2000} s under ${CLIENTS} clients: ` +
      `${traffic.samples.length} requests served, ${outage.during} sent while it was down, ${outage.unavailable} answered 503 ` +
      `(translated, slowest answer ${outage.slowestMs} ms), 0 hangs, 0 5xx other than 503; recovered ${recoveredMs} ms after it returned; ` +
      `${traffic.transfers.length} transfers retried with their keys: ${replayed} replayed, totals exact; breaks found: 0`,
  )
})
