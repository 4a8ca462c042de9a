import { formatAmount, type DepositAddress } from '@hope/api'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { Address, PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { devAccount } from '../../apps/server/src/chain/local-chain.ts'
import { migrate } from '../../apps/server/src/db/migrate.ts'
import { DEMO_ROOT, seedDemo } from '../../apps/server/src/db/seed.ts'
import { createSettingsService } from '../../apps/server/src/modules/settings/settings.service.ts'
import {
  startLogRangeProxy,
  type LogRangeProxy,
} from '../../apps/server/src/testing/log-range-proxy.ts'
import { startSharedChain, type SharedChain } from '../../apps/server/src/testing/shared-chain.ts'
import {
  createOperators,
  credit,
  ok,
  registerUser,
  setSetting,
  withdrawToFresh,
  type Operators,
} from './support/api.ts'
import { chainClientAt, sendTokenAt, tokenBalance } from './support/chain.ts'
import { waitForCount } from './support/checks.ts'
import { createDatabase, dropDatabase } from './support/postgres.ts'
import { HopeServer, runScript } from './support/server.ts'

// The app meets chain endpoints that behave like hosted providers: two of them in
// CHAIN_RPC_URLS, both refusing log ranges over 1,000 blocks, one lagging the head by a few
// blocks and answering every fifth call with a 429, the other dropping every ninth call; the
// chain has HISTORY blocks between the deployment and the app's first start. A deposit made
// before that history is credited once, a payout is paid once, reconciliation is clean, no
// deposit is taken for reorganised, and no log read over the cap reaches either provider.
const serverUrl = process.env.TEST_DATABASE_URL
const HISTORY = Number(process.env.FAULTS_CHAIN_HISTORY ?? 5_000)
const CAP = 1_000
const CONFIRMATIONS = 3

if (!serverUrl) console.warn('TEST_DATABASE_URL is not set: the chain provider test is skipped')

describe.skipIf(!serverUrl)('the app behind provider-like chain endpoints', () => {
  const dbName = `hope_chain_provider_${randomBytes(4).toString('hex')}`
  let pool: pg.Pool
  let shared: SharedChain
  let client: PublicClient
  let server: HopeServer
  let ops: Operators
  let env: Record<string, string>
  const proxies: LogRangeProxy[] = []
  let early: { hash: string; units: bigint }

  beforeAll(async () => {
    const databaseUrl = await createDatabase(serverUrl!, dbName)
    pool = new pg.Pool({ connectionString: databaseUrl, max: 4 })
    pool.on('error', () => {})
    await migrate(pool)
    await seedDemo(pool)
    const settings = createSettingsService(pool)
    await settings.set('chainConfirmations', CONFIRMATIONS, 'chain provider test')
    shared = await startSharedChain(pool, { blockTimeSec: 1 })
    client = chainClientAt(shared.chain.url)
    // A member registered before the history: its deposit lies at the history's start.
    const member = devAccount(4)
    early = { units: 12_345_678n, hash: '' }
    early.hash = (
      await sendTokenAt(
        shared.chain.url,
        member,
        shared.setup.tokenAddress,
        shared.setup.depositAddress as Address,
        early.units,
      )
    ).hash
    // In chunks, each answered well within a client's timeout on a busy machine.
    for (let mined = 0; mined < HISTORY; mined += 500) {
      const res = await fetch(shared.chain.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0x1f4'] }),
      })
      await res.text()
    }
    for (let i = 0; i < 2; i++) {
      const p = await startLogRangeProxy(shared.chain.url)
      p.capRange(CAP)
      proxies.push(p)
    }
    proxies[0]!.lag(3)
    proxies[0]!.rateLimit(5)
    proxies[1]!.drop(9)
    env = {
      DATABASE_URL: databaseUrl,
      ...shared.env,
      CHAIN_RPC_URL: '',
      CHAIN_RPC_URLS: proxies.map((p) => p.url).join(','),
      CHAIN_RPC_TIMEOUT_MS: '2000',
      OPERATOR_SECRET_KEY: randomBytes(32).toString('hex'),
      SEED_DEMO: 'false',
    }
    server = await HopeServer.create()
    await server.start(env)
    ops = await createOperators(server, env)
    await setSetting(server, ops, 'newAddressHoldHours', '0')
  })

  afterAll(async () => {
    await server?.dispose()
    for (const p of proxies) await p.close()
    await shared?.chain.stop()
    await pool?.end()
    if (serverUrl) await dropDatabase(serverUrl, dbName)
  })

  test('a deposit from before a long history is credited once, with no false reorg', async () => {
    const user = await registerUser(server, DEMO_ROOT.userName, devAccount(4))
    const target = await ok<DepositAddress>(
      server.baseUrl,
      'userAccount/getAddress',
      {},
      user.token,
    )
    expect(target.confirmations).toBe(CONFIRMATIONS)
    await waitForCount(
      pool,
      'the deposit from before the history to be credited',
      `SELECT count(*)::int AS n FROM deposits WHERE status = 'credited' AND tx_hash = '${early.hash.toLowerCase()}'`,
      (n) => n === 1,
    )
    const credits = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_transfers WHERE request_key LIKE 'deposit-post:%'`,
    )
    expect(credits.rows[0]!.n).toBe(1)
    const balance = await pool.query<{ b: string }>(
      `SELECT a.balance::text AS b FROM ledger_accounts a JOIN users u ON u.id = a.user_id
       WHERE u.user_name = $1 AND a.kind = 'usdt'`,
      [user.userName],
    )
    expect(balance.rows[0]!.b).toBe(`${formatAmount(early.units, 6)}000000000000`)
    const reorged = await pool.query(`SELECT 1 FROM deposits WHERE status = 'reorged'`)
    expect(reorged.rowCount).toBe(0)
  })

  test('a payout through the providers is paid once and reconciliation is clean', async () => {
    const user = await registerUser(server, DEMO_ROOT.userName)
    await credit(server, ops, user.userName, '100')
    const units = 25_000_000n
    const { id, to } = await withdrawToFresh(server, user, units)
    await ok(
      server.baseUrl,
      'admin/bulkReviewWithdraw',
      { ids: String(id), decision: 'approve' },
      ops.finance,
    )
    await waitForCount(
      pool,
      'the withdrawal to complete',
      `SELECT count(*)::int AS n FROM withdrawals WHERE id = ${id} AND status = 2`,
      (n) => n === 1,
    )
    const token = (await createSettingsService(pool).get()).chainTokenAddress as Address
    expect(await tokenBalance(client, token, to)).toBe(units)
    const r = await runScript('chain-reconcile.ts', server.dataDir, [], env)
    expect(r.code, r.stderr + r.stdout).toBe(0)
    expect(r.stdout).toMatch(/reconciliation clean/)
  })

  test('no log read over the cap reached a provider, and both endpoints served calls', () => {
    for (const p of proxies) {
      for (const range of p.ranges)
        expect(range.to - range.from + 1n).toBeLessThanOrEqual(BigInt(CAP))
      expect(p.refused()).toBe(0)
      expect([...p.calls.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
    }
    const reads = proxies.reduce((n, p) => n + p.ranges.length, 0)
    // The deposit scan and the vault scan each read the history in capped ranges.
    expect(reads).toBeGreaterThanOrEqual(Math.ceil(HISTORY / CAP))
    console.info(
      `[faults] chain provider: ${HISTORY} blocks of history, ${reads} log reads of at most ${CAP} blocks, none refused`,
    )
  })
})
