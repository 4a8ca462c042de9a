import { formatAmount, type DepositAddress } from '@hope/api'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { keccak256, parseTransaction, toHex, type Address, type Hex, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { anvilRpc } from '../../apps/server/src/chain/anvil.ts'
import { LOCAL_ROLES, devAccount } from '../../apps/server/src/chain/local-chain.ts'
import { DEMO_ROOT } from '../../apps/server/src/db/seed.ts'
import { createSettingsService } from '../../apps/server/src/modules/settings/settings.service.ts'
import {
  startLogRangeProxy,
  type LogRangeProxy,
} from '../../apps/server/src/testing/log-range-proxy.ts'
import type { SharedChain } from '../../apps/server/src/testing/shared-chain.ts'
import {
  createOperators,
  credit,
  ok,
  registerUser,
  setSetting,
  withdrawToFresh,
  type Operators,
  type User,
} from './support/api.ts'
import { chainClientAt, sendTokenAt, tokenBalance } from './support/chain.ts'
import { waitForCount } from './support/checks.ts'
import { startLongChain } from './support/long-chain.ts'
import { createPreparedDatabase, dropDatabase } from './support/postgres.ts'
import { HopeServer, repoRoot, runScript, sleep } from './support/server.ts'

// The app meets chain endpoints that behave like hosted providers: two of them in
// CHAIN_RPC_URLS, both refusing log ranges over 1,000 blocks, one lagging the head by a few
// blocks and answering every fifth call with a 429, the other dropping every ninth call; the
// chain has HISTORY blocks between the deployment and the app's first start. A deposit made
// before that history is credited once, a payout is paid once and another, left pending by a
// fee spike, is replaced with its nonce and paid once, reconciliation is clean, a proof of
// liabilities is published over that chain and verifies, no deposit is taken for reorganised,
// and no log read over the cap reaches either provider.
const serverUrl = process.env.TEST_DATABASE_URL
const HISTORY = Number(process.env.FAULTS_CHAIN_HISTORY ?? 50_000)
const CAP = 1_000
const CONFIRMATIONS = 3
/** Blocks a payout waits before the app replaces it with higher fees. */
const REPLACE_AFTER = 3

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
  let earlyUser: User
  let mineSeconds = 0
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-publisher-'))
  const anvil = (method: string, params: unknown[] = []) =>
    anvilRpc(shared.chain.url, method, params)
  const payout = async (id: number) =>
    (
      await pool.query<{
        status: number
        raw: Hex | null
        hash: string | null
        replacements: number
      }>(
        `SELECT status, raw_tx AS raw, tx_hash AS hash, payout_replacements AS replacements
         FROM withdrawals WHERE id = $1`,
        [id],
      )
    ).rows[0]!

  beforeAll(async () => {
    const prepared = await createPreparedDatabase(serverUrl!, dbName, CONFIRMATIONS)
    const { databaseUrl } = prepared
    pool = prepared.pool
    const long = await startLongChain(pool, { blockTimeSec: 1 })
    shared = long
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
    const t0 = performance.now()
    await long.mine(HISTORY)
    mineSeconds = (performance.now() - t0) / 1000
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
    fs.rmSync(keyDir, { recursive: true, force: true })
    await pool?.end()
    if (serverUrl) await dropDatabase(serverUrl, dbName)
  })

  test('a deposit from before a long history is credited once, with no false reorg', async () => {
    const user = await registerUser(server, DEMO_ROOT.userName, devAccount(4))
    earlyUser = user
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

  test('a payout left pending by a fee spike is replaced with its nonce and paid once', async () => {
    await setSetting(server, ops, 'payoutReplaceAfterBlocks', String(REPLACE_AFTER))
    const user = await registerUser(server, DEMO_ROOT.userName)
    await credit(server, ops, user.userName, '100')
    const units = 20_000_000n
    const { id, to } = await withdrawToFresh(server, user, units)
    // Blocks only as the test mines them: the payout waits in the node's pool once sent.
    await anvil('evm_setIntervalMining', [0])
    let first: Hex
    let replaced: Awaited<ReturnType<typeof payout>>
    try {
      await ok(
        server.baseUrl,
        'admin/bulkReviewWithdraw',
        { ids: String(id), decision: 'approve' },
        ops.finance,
      )
      for (let i = 0; !(await payout(id)).raw; i++) {
        if (i > 120) throw new Error(`the payout was not sent:\n${server.output()}`)
        await sleep(250)
      }
      first = (await payout(id)).raw!
      const spike = parseTransaction(first).maxFeePerGas! + 1_000_000_000n
      // Every block's base fee above what the payout offers, until the app replaces it.
      for (let blocks = 0; (await payout(id)).replacements === 0; blocks++) {
        if (blocks > 120) throw new Error(`the payout was not replaced:\n${server.output()}`)
        await anvil('anvil_setNextBlockBaseFeePerGas', [toHex(spike)])
        await anvil('anvil_mine', ['0x1'])
        await sleep(500)
      }
      replaced = await payout(id)
      await anvil('anvil_setNextBlockBaseFeePerGas', [toHex(spike)])
    } finally {
      await anvil('evm_setIntervalMining', [1])
    }
    const sent = parseTransaction(first)
    const replacement = parseTransaction(replaced.raw!)
    expect(replaced.replacements).toBe(1)
    expect(replacement.nonce).toBe(sent.nonce)
    expect(replacement.maxFeePerGas! * 1000n).toBeGreaterThanOrEqual(sent.maxFeePerGas! * 1125n)
    await waitForCount(
      pool,
      'the replaced payout to complete',
      `SELECT count(*)::int AS n FROM withdrawals WHERE id = ${id} AND status = 2`,
      (n) => n === 1,
    )
    // Paid once, by the replacement; the first transaction never mined.
    expect((await payout(id)).hash).toBe(replaced.hash)
    expect(
      await client.getTransactionReceipt({ hash: replaced.hash as Hex }).then((r) => r.status),
    ).toBe('success')
    await expect(client.getTransactionReceipt({ hash: keccak256(first) })).rejects.toThrow()
    const token = (await createSettingsService(pool).get()).chainTokenAddress as Address
    expect(await tokenBalance(client, token, to)).toBe(units)
  })

  test('a proof of liabilities is published over the long chain and verifies, reconciliation clean', async () => {
    const keyFile = path.join(keyDir, 'publisher.key')
    fs.writeFileSync(keyFile, toHex(devAccount(LOCAL_ROLES.deployer).getHdKey().privateKey!), {
      mode: 0o600,
    })
    const published = await runScript('por-publish.ts', server.dataDir, [], {
      ...env,
      POR_PUBLISHER_KEY_FILE: keyFile,
      POR_PUBLISH_TIMEOUT_MS: '150000',
    })
    expect(published.code, `${published.stdout}\n${published.stderr}`).toBe(0)
    expect(published.stdout).toMatch(/snapshot \d+ published in block \d+/)
    // No snapshot was taken for reorganised by a lagging node, nor voided.
    const snapshots = await pool.query<{ status: string }>(`SELECT status FROM por_snapshots`)
    expect(snapshots.rows.map((r) => r.status)).toEqual(['published'])

    // The member whose deposit lies at the history's start proves it, with the pinned command.
    const proof = await ok<{ balance: { usdt: string } }>(
      server.baseUrl,
      'por/myProof',
      {},
      earlyUser.token,
    )
    expect(proof.balance.usdt).toBe(String(early.units))
    const official = await ok<{ porRegistryAddress: string; tokenAddress: string }>(
      server.baseUrl,
      'userAccount/getAddress',
      {},
      earlyUser.token,
    )
    const file = path.join(keyDir, 'proof.json')
    fs.writeFileSync(file, JSON.stringify(proof))
    const verified = await runCli(path.join(repoRoot, 'packages/por-verify/src/cli.ts'), [
      file,
      ...['--rpc', shared.chain.url, '--registry', official.porRegistryAddress],
      ...['--token', official.tokenAddress, '--address', devAccount(4).address],
      ...['--usdt', formatAmount(early.units, 6), '--hope', '0'],
    ])
    expect(verified.out).toMatch(/All \d+ checks hold\./)
    expect(verified.code, verified.out).toBe(0)

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
      `[faults] chain provider: ${HISTORY} blocks of history mined in ${mineSeconds.toFixed(1)} s, ${reads} log reads of at most ${CAP} blocks, none refused`,
    )
  })
})

/** Runs a node script: its exit code and everything it printed. */
function runCli(script: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })))
}
