import {
  formatAmount,
  type DepositAddress,
  type SettlementRun,
  type TransferResult,
} from '@hope/api'
import { randomBytes, randomInt } from 'node:crypto'
import { Redis } from 'ioredis'
import pg from 'pg'
import type { Address, LocalAccount, PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { devAccount, LOCAL_ROLES } from '../../apps/server/src/chain/local-chain.ts'
import { DEMO_ROOT } from '../../apps/server/src/db/seed.ts'
import { generateEconomy } from '../../apps/server/test-support/settlement.generate.ts'
import { settlementDayDue } from '../../apps/server/src/modules/settlement/settlement.rules.ts'
import { createSettingsService } from '../../apps/server/src/modules/settings/settings.service.ts'
import { startSharedChain, type SharedChain } from '../../apps/server/src/testing/shared-chain.ts'
import {
  call,
  createOperators,
  setSetting,
  credit,
  inParallel,
  ok,
  registerLine,
  registerUser,
  requestStats,
  succeeded,
  type Answer,
  type Operators,
  type User,
  withdrawToFresh,
} from './support/api.ts'
import {
  balancesAfter,
  usdtUnits,
  userBalances,
  waitForCount,
  settledPositions,
  depositsAfterCredit,
} from './support/checks.ts'
import { chainClientAt, sendTokenAt, tokenBalance } from './support/chain.ts'
import { createPreparedDatabase, dropDatabase } from './support/postgres.ts'
import { planStorm, sendPlanned, type PlannedTransfer } from './support/traffic.ts'
import { HopeServer, runScript, waitFor } from './support/server.ts'

// Three server processes, each running every background job, on one database (of its own, on
// TEST_DATABASE_URL's server), one Redis and one chain: deposits are credited, withdrawals paid
// and positions settled once however the three meet; one of them killed in a transfer storm
// costs only its own cut requests.
const serverUrl = process.env.TEST_DATABASE_URL
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** The local chain's dev accounts 3..9 hold test USDT and ether: they deposit here. */
const DEPOSIT_WALLETS = [3, 4, 5, 6, 7, 8, 9]
const DEPOSITS_EACH = 3
const CONFIRMATIONS = 2
const WITHDRAWING_USERS = 4
const WITHDRAWALS_EACH = 3
const WITHDRAWAL_FUNDING = 1_000_000_000n // 1,000 USDT
const WITHDRAWAL_FEE = 1_000_000n // the default withdrawal fee, 1 USDT
const MEMBERS = 300
const POSITIONS = 1_500
const STORM_USERS = 10
const STORM_FUNDING = 500_000_000n // 500 USDT each
const STORM_TRANSFERS = 300
const STORM_CONCURRENCY = 24
/** The third instance is killed once this many storm transfers have been answered. */
const KILL_AFTER = 90

/** Redis at `redisUrl`, or null when it does not answer within a second. */
async function openRedis(): Promise<Redis | null> {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    retryStrategy: () => null,
  })
  redis.on('error', () => {})
  const up = await redis
    .connect()
    .then(() => redis.ping())
    .then(
      () => true,
      () => false,
    )
  if (up) return redis
  redis.disconnect()
  return null
}

const redis = await openRedis()
if (!redis)
  console.warn(`Redis does not answer at ${redisUrl}: the cluster counts its limits in PostgreSQL`)
if (!serverUrl) console.warn('TEST_DATABASE_URL is not set: the cluster jobs test is skipped')

/** Every key in Redis matching `pattern`. */
async function redisKeys(pattern: string): Promise<string[]> {
  const keys: string[] = []
  let cursor = '0'
  do {
    const [next, batch] = await redis!.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000)
    keys.push(...batch)
    cursor = next
  } while (cursor !== '0')
  return keys
}

describe.skipIf(!serverUrl)('three server processes running their jobs on one chain', () => {
  const dbName = `hope_cluster_jobs_${randomBytes(4).toString('hex')}`
  const redisPrefix = `hope-test-${randomBytes(4).toString('hex')}:`
  const servers: HopeServer[] = []
  let pool: pg.Pool
  let shared: SharedChain
  let client: PublicClient
  let env: Record<string, string>
  let ops: Operators

  beforeAll(async () => {
    const prepared = await createPreparedDatabase(serverUrl!, dbName, CONFIRMATIONS)
    const { databaseUrl } = prepared
    pool = prepared.pool
    shared = await startSharedChain(pool, { blockTimeSec: 1 })
    client = chainClientAt(shared.chain.url)
    // Positions for the settlement, opened well before the settled day.
    await generateEconomy(pool, { users: MEMBERS, positions: POSITIONS, prefix: 'cluster' })
    await pool.query(`UPDATE stake_positions SET created_at = now() - interval '5 days'`)
    env = {
      DATABASE_URL: databaseUrl,
      ...shared.env,
      REDIS_URL: redis ? redisUrl : '',
      REDIS_PREFIX: redisPrefix,
      // One key for the operators' sealed secrets: a sign-in works on every instance.
      OPERATOR_SECRET_KEY: randomBytes(32).toString('hex'),
      SEED_DEMO: 'false',
    }
    for (let i = 0; i < 3; i++) servers.push(await HopeServer.create())
    await Promise.all(servers.map((s) => s.start(env)))
    ops = await createOperators(servers[0]!, env)
    // Payouts here go to fresh addresses and are approved at once: no new-address hold.
    await setSetting(servers[0]!, ops, 'newAddressHoldHours', '0')
  })

  afterAll(async () => {
    console.info(
      `[faults] cluster jobs: ${servers.length} instances, ${requestStats.answered} requests answered`,
    )
    await Promise.all(servers.map((s) => s.dispose()))
    await pool?.end()
    await shared?.chain.stop()
    if (redis) {
      const keys = await redisKeys(`${redisPrefix}*`)
      if (keys.length) await redis.del(...keys)
      redis.disconnect()
    }
    await dropDatabase(serverUrl!, dbName)
  })

  /** A command of the server run on the cluster's database and chain; its output, or throws. */
  async function command(name: string): Promise<string> {
    const r = await runScript(name, servers[0]!.dataDir, [], env)
    if (r.code !== 0) throw new Error(`${name} failed (${r.code}):\n${r.stderr}${r.stdout}`)
    return r.stdout.trim()
  }

  test.skipIf(!redis)('the limits count under REDIS_PREFIX, one count for the three', async () => {
    // The operators' two sign-ins on the first instance, and one registration on each.
    for (const s of servers) await registerUser(s, DEMO_ROOT.userName)
    const keys = await redisKeys(`${redisPrefix}limit:ip:*`)
    expect(keys).toHaveLength(1)
    expect(await redis!.hget(keys[0]!, 'c')).toBe('5')
    expect(await redisKeys(`${redisPrefix}*`)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^hope-test-[0-9a-f]{8}:limit:/)]),
    )
  })

  test('three deposit watchers credit every deposit once', async () => {
    const users = await Promise.all(
      DEPOSIT_WALLETS.map((w, i) =>
        registerUser(servers[i % 3]!, DEMO_ROOT.userName, devAccount(w)),
      ),
    )
    const target = await ok<DepositAddress>(
      servers[1]!.baseUrl,
      'userAccount/getAddress',
      {},
      users[0]!.token,
    )
    const sent = new Map(users.map((u) => [u.userName, 0n]))
    const deposit = (from: LocalAccount, units: bigint) =>
      sendTokenAt(
        shared.chain.url,
        from,
        target.tokenAddress as Address,
        target.depositAddress as Address,
        units,
      )
    await inParallel(users, users.length, async (u) => {
      for (let i = 0; i < DEPOSITS_EACH; i++) {
        const units = 1_000_000n + BigInt(randomInt(0, 99_000_000))
        await deposit(u.account, units)
        sent.set(u.userName, sent.get(u.userName)! + units)
      }
    })
    const deposits = users.length * DEPOSITS_EACH
    // Settled over a few more scans of all three watchers: a second credit would show.
    expect(await depositsAfterCredit(pool, deposits, 5_000)).toEqual([
      { status: 'credited', n: deposits },
    ])
    const posted = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_transfers WHERE request_key LIKE 'deposit-post:%'`,
    )
    expect(posted.rows[0]!.n).toBe(deposits)
    const balances = await userBalances(
      pool,
      users.map((u) => u.userName),
    )
    for (const u of users) expect(balances.get(u.userName)?.balance).toBe(sent.get(u.userName))
    console.info(
      `[faults] cluster jobs: ${deposits} deposits from ${users.length} wallets, three watchers; each credited once`,
    )
  })

  test('three withdrawal senders pay every approved withdrawal once, one nonce each', async () => {
    const users: User[] = []
    for (let i = 0; i < WITHDRAWING_USERS; i++) {
      const user = await registerUser(servers[i % 3]!, DEMO_ROOT.userName)
      await credit(servers[(i + 1) % 3]!, ops, user.userName, formatAmount(WITHDRAWAL_FUNDING, 6))
      users.push(user)
    }
    const token = (await createSettingsService(pool).get()).chainTokenAddress as Address
    const hotWallet = devAccount(LOCAL_ROLES.hotWallet).address
    const nonceBefore = await client.getTransactionCount({ address: hotWallet })
    // Each withdrawal pays a fresh address, so its balance on chain shows how often it was paid.
    const requests: { user: User; units: bigint; to: Address; id: number }[] = []
    for (const [u, user] of users.entries()) {
      for (let i = 0; i < WITHDRAWALS_EACH; i++) {
        const units = 10_000_000n + BigInt(randomInt(0, 90_000_000))
        const { id, to } = await withdrawToFresh(servers[(u + i) % 3]!, user, units)
        requests.push({ user, units, to, id })
      }
    }
    await ok(
      servers[2]!.baseUrl,
      'admin/bulkReviewWithdraw',
      { ids: requests.map((r) => r.id).join(','), decision: 'approve' },
      ops.finance,
    )
    await waitForCount(
      pool,
      'every approved withdrawal to complete',
      'SELECT count(*)::int AS n FROM withdrawals WHERE status <> 2',
      (n) => n === 0,
    )
    for (const r of requests) expect(await tokenBalance(client, token, r.to)).toBe(r.units)
    // One payout transaction per withdrawal, each with a nonce of its own, none sent twice.
    expect(await client.getTransactionCount({ address: hotWallet })).toBe(
      nonceBefore + requests.length,
    )
    const hashes = await pool.query<{ tx_hash: `0x${string}` }>(
      'SELECT tx_hash FROM withdrawals WHERE id = ANY ($1::bigint[])',
      [requests.map((r) => r.id)],
    )
    const nonces = new Set<number>()
    for (const { tx_hash } of hashes.rows) {
      const tx = await client.getTransaction({ hash: tx_hash })
      expect(tx.from.toLowerCase()).toBe(hotWallet.toLowerCase())
      nonces.add(tx.nonce)
    }
    expect(nonces.size).toBe(requests.length)
    const balances = await userBalances(
      pool,
      users.map((u) => u.userName),
    )
    for (const user of users) {
      const paid = requests
        .filter((r) => r.user === user)
        .reduce((t, r) => t + r.units + WITHDRAWAL_FEE, 0n)
      expect(balances.get(user.userName)).toEqual({
        balance: WITHDRAWAL_FUNDING - paid,
        pending: 0n,
      })
    }
    console.info(
      `[faults] cluster jobs: ${requests.length} approved withdrawals, three senders; each paid once on chain, nonces ${nonceBefore}..${nonceBefore + requests.length - 1}`,
    )
  })

  test('three settlement jobs settle every position once', async () => {
    // The three instances started together, so their jobs' minute ticks meet on the lock.
    const day = settlementDayDue(Date.now(), 480, '00:05')
    const waited = Date.now()
    await waitFor(
      `the jobs to settle ${day}`,
      async () => {
        const r = await pool.query<{ status: string }>(
          'SELECT status FROM settlement_runs WHERE day = $1',
          [day],
        )
        return r.rows[0]?.status === 'done'
      },
      90_000,
      250,
    )
    const waitedMs = Date.now() - waited
    // An operator on each instance at once: one takes the lock, the others wait their turn;
    // the day is done, nothing is paid again.
    const settleOn = (server: HopeServer) =>
      waitFor(
        `the operator's settlement of ${day}`,
        async () => {
          const a = await call<SettlementRun>(
            server.baseUrl,
            'admin/settle',
            { day },
            { token: ops.finance },
          )
          if (succeeded(a)) return a.body!.data
          if (a.body?.reason !== 'already_resolved') throw new Error(JSON.stringify(a.body))
          return null
        },
        30_000,
        100,
      )
    const runs = await Promise.all(servers.map(settleOn))
    for (const run of runs) {
      expect(run.status).toBe('done')
      expect(run.positions).toBe(POSITIONS)
      expect(run.consensusHope).toBe(runs[0]!.consensusHope)
    }
    expect(await settledPositions(pool, day)).toEqual({ unsettled: 0, wrong: 0 })
    // One consensus release transfer per position, none twice; one run for the day.
    const releases = await pool.query<{ n: number; refs: number; runs: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT reference)::int AS refs,
              (SELECT count(*)::int FROM settlement_runs WHERE day = $1) AS runs
         FROM ledger_transfers WHERE log_type = 7`,
      [day],
    )
    expect(releases.rows[0]).toEqual({ n: POSITIONS, refs: POSITIONS, runs: 1 })
    console.info(
      `[faults] cluster jobs: ${POSITIONS} positions settled by the three instances' jobs (waited ${waitedMs} ms for their tick); ` +
        `three operators' runs after found the day done; each release once`,
    )
  })

  test('one instance killed in a transfer storm: the others answer, every retry applies once', async () => {
    const users = await registerLine(servers[0]!, STORM_USERS)
    await inParallel(users, 3, (u, i) =>
      credit(servers[i % 3]!, ops, u.userName, formatAmount(STORM_FUNDING, 6)),
    )
    const names = users.map((u) => u.userName)
    const start = await userBalances(pool, names)
    // Each sender sends less than it was funded, so every transfer succeeds in any order.
    const plan = planStorm(STORM_TRANSFERS, STORM_USERS)
    const send = (p: PlannedTransfer, server: HopeServer) =>
      sendPlanned(server, users, p, { timeoutMs: 30_000 })

    const victim = 2
    let answered = 0
    let killing: Promise<void> | null = null
    const first = await inParallel(plan, STORM_CONCURRENCY, async (p, i) => {
      const instance = i % 3
      const sentAfterKill = killing !== null
      const a = await send(p, servers[instance]!)
      if (a.status > 0 && ++answered >= KILL_AFTER && !killing)
        killing = servers[victim]!.kill('SIGKILL')
      return { a, instance, sentAfterKill }
    })
    await killing
    expect(servers[victim]!.running).toBe(false)
    const show = (r: { a: Answer<TransferResult> }) =>
      `${r.a.status} ${r.a.error ?? JSON.stringify(r.a.body)}`
    // The survivors answered every request, those sent after the kill included.
    const survivors = first.filter((r) => r.instance !== victim)
    expect(survivors.filter((r) => !succeeded(r.a)).map(show)).toEqual([])
    const survivorsAfterKill = survivors.filter((r) => r.sentAfterKill).length
    expect(survivorsAfterKill).toBeGreaterThan(0)
    // The killed one answered, or its connection was cut or refused: never a 4xx or 5xx.
    const onVictim = first.filter((r) => r.instance === victim)
    expect(onVictim.filter((r) => r.a.status > 0 && !succeeded(r.a)).map(show)).toEqual([])
    const cut = onVictim.filter((r) => r.a.status <= 0).length
    expect(cut).toBeGreaterThan(0)

    // Every request the killed instance had, sent again with its key to a survivor.
    let replayed = 0
    let movedNow = 0
    await inParallel(
      first.map((r, i) => ({ ...r, i })).filter((r) => r.instance === victim),
      STORM_CONCURRENCY,
      async (r) => {
        const again = await send(plan[r.i]!, servers[r.i % 2]!)
        expect(succeeded(again), `retry ${r.i}: ${show({ a: again })}`).toBe(true)
        if (succeeded(r.a)) {
          // Acknowledged before the kill: committed, the retry only replays it.
          expect(again.body!.data.replayed).toBe(true)
          expect(again.body!.data.transferId).toBe(r.a.body!.data.transferId)
        }
        if (again.body!.data.replayed) replayed += 1
        else movedNow += 1
      },
    )

    // Exact totals: every planned transfer moved its amount once.
    const expected = balancesAfter(
      names.map((n) => start.get(n)!.balance),
      plan,
    )
    const balances = await userBalances(pool, names)
    names.forEach((n, i) => expect(balances.get(n)?.balance).toBe(expected[i]))
    const moved = await pool.query<{ n: number; total: string }>(
      `SELECT count(*)::int AS n, coalesce(sum(amount), 0)::text AS total
         FROM ledger_transfers WHERE request_key LIKE 'transfer:%' AND leg = 0`,
    )
    expect(moved.rows[0]!.n).toBe(STORM_TRANSFERS)
    expect(usdtUnits(moved.rows[0]!.total)).toBe(plan.reduce((t, p) => t + p.units, 0n))

    const verified = await command('ledger-verify.ts')
    expect(verified).toMatch(/ledger OK/)
    expect(await command('chain-reconcile.ts')).toMatch(/reconciliation clean/)
    console.info(
      `[faults] cluster jobs: ${STORM_TRANSFERS} transfers by ${STORM_CONCURRENCY} clients over three instances, the third killed after ${KILL_AFTER} answers; ` +
        `survivors answered all ${survivors.length} of theirs (${survivorsAfterKill} sent after the kill); ${cut} cut, ` +
        `${onVictim.length} retried on a survivor: ${replayed} replayed, ${movedNow} moved now; ${verified}; reconciliation clean`,
    )
  })
})
