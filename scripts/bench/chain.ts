// The chain figures: how many chain calls an idle deployment makes per new block (1 and 2
// server workers, counted in the local chain's own log over BENCH_CHAIN_SECONDS [60] of
// 1-second blocks), how long the deposit scan takes to catch up BENCH_CHAIN_HISTORY [50000]
// blocks through a provider-like proxy that refuses log ranges over 1,000 blocks, and how many
// blocks after finality a deposit is credited (the watcher ticking every 2 s as its job does).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { parseUnits, type Address } from 'viem'
import { anvilBinary, runningLocalChain } from '../../apps/server/src/chain/anvil.ts'
import { connectChain } from '../../apps/server/src/chain/chain.service.ts'
import { configureLocalChain, devAccount } from '../../apps/server/src/chain/local-chain.ts'
import { migrate } from '../../apps/server/src/db/migrate.ts'
import { freePort } from '../../apps/server/src/lib/process.ts'
import { createDepositWatcher } from '../../apps/server/src/modules/recharge/deposit.watcher.ts'
import { createLedgerService } from '../../apps/server/src/modules/ledger/ledger.service.ts'
import { createSettingsService } from '../../apps/server/src/modules/settings/settings.service.ts'
import { startLogRangeProxy } from '../../apps/server/src/testing/log-range-proxy.ts'
import { sendTokenAt } from '../../tests/faults/support/chain.ts'
import { startBenchServer } from './postgres.ts'
import { launchServer, makeDataDir } from './start.ts'
import type { BenchRow } from './table.ts'

const SECONDS = Number(process.env.BENCH_CHAIN_SECONDS ?? 60)
const HISTORY = Number(process.env.BENCH_CHAIN_HISTORY ?? 50_000)
const PROVIDER_CAP = 1_000
const WARMUP_MS = 20_000
const CONFIRMATIONS = 3

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}
const blockNumber = async (url: string) => BigInt((await rpc(url, 'eth_blockNumber')) as string)

/** Calls named in Anvil's log (one line per call) from `offset` on, by method. */
function callsInLog(file: string, offset: number): Map<string, number> {
  const text = fs.readFileSync(file, 'utf8').slice(offset)
  const byMethod = new Map<string, number>()
  for (const l of text.split('\n')) {
    const m = l.trim()
    if (/^(eth|net|web3|anvil|evm)_\w+$/.test(m)) byMethod.set(m, (byMethod.get(m) ?? 0) + 1)
  }
  return byMethod
}

/** Chain calls per new block of an idle app with `workers` server processes. */
async function idleCalls(workers: number): Promise<BenchRow> {
  const dataDir = makeDataDir()
  try {
    const server = await launchServer(dataDir, {
      WEB_CONCURRENCY: String(workers),
      CHAIN_BLOCK_TIME: '1',
      LOG_LEVEL: 'warn',
    })
    try {
      // The first start deploys the contracts and runs every job once: not idle yet.
      await sleep(WARMUP_MS)
      const log = path.join(dataDir, 'chain', 'anvil.log')
      const url = runningLocalChain(dataDir)
      if (!url) throw new Error('the app runs no local chain')
      const offset = fs.statSync(log).size
      const from = await blockNumber(url)
      await sleep(SECONDS * 1000)
      const to = await blockNumber(url)
      // Less the two head reads of this measure.
      const byMethod = callsInLog(log, offset)
      const calls = [...byMethod.values()].reduce((a, b) => a + b, 0) - 2
      console.info(
        `chain: calls by method: ${[...byMethod]
          .sort((a, b) => b[1] - a[1])
          .map(([m, n]) => `${m} ${n}`)
          .join(', ')}`,
      )
      const perBlock = calls / Number(to - from)
      console.info(
        `chain: ${workers} worker(s), ${calls} calls over ${to - from} blocks: ${perBlock.toFixed(2)} per block`,
      )
      return {
        group: 'chain',
        name: 'chain calls per new block, idle',
        size: `${workers} worker${workers === 1 ? '' : 's'}`,
        value: perBlock,
        unit: 'calls',
        budget: '≤ 2',
        ok: perBlock <= 2,
      }
    } finally {
      await server.stop()
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/** An Anvil of its own (history pruned of old states, so 50,000 blocks mine in seconds). */
async function ownAnvil(args: string[] = []) {
  const port = await freePort()
  const child = spawn(
    anvilBinary(),
    ['--host', '127.0.0.1', '--port', String(port), '--chain-id', '31337', ...args],
    { stdio: 'ignore' },
  )
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      await blockNumber(url)
      break
    } catch {
      if (i > 200) throw new Error('anvil did not start')
      await sleep(50)
    }
  }
  return { url, stop: () => void child.kill('SIGTERM') }
}

/** Deposit watcher and settings over a fresh database and an Anvil with the contracts. */
async function depositBench(anvilUrl: string, clientUrl: string, dbUrl: string) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 4 })
  pool.on('error', () => {})
  await migrate(pool)
  const settings = createSettingsService(pool)
  const setup = await configureLocalChain(settings, anvilUrl, { freshChain: true })
  await settings.set('chainConfirmations', CONFIRMATIONS, 'bench')
  await settings.set('chainLogRange', PROVIDER_CAP, 'bench')
  await pool.query(
    `INSERT INTO users (user_name, nick_name, referral_code) VALUES ($1, 'bench', 'BENCH')`,
    [devAccount(3).address.toLowerCase()],
  )
  const chain = connectChain(clientUrl, 31337)
  const watcher = createDepositWatcher({
    pool,
    ledger: createLedgerService(pool),
    settings,
    client: chain.client,
    chainId: chain.chainId,
  })
  return { pool, setup, watcher }
}

/** A 1 USDT deposit from the registered dev account 3: the block it was mined in. */
async function sendDeposit(anvilUrl: string, token: string, to: string): Promise<bigint> {
  const sent = await sendTokenAt(
    anvilUrl,
    devAccount(3),
    token as Address,
    to as Address,
    parseUnits('1', 6),
  )
  return sent.block
}

/** Seconds the deposit scan takes to catch up `HISTORY` blocks through a 1,000-block cap. */
async function catchUp(dbUrl: string): Promise<BenchRow> {
  const anvil = await ownAnvil(['--prune-history'])
  const proxy = await startLogRangeProxy(anvil.url)
  proxy.capRange(PROVIDER_CAP)
  try {
    const { pool, setup, watcher } = await depositBench(anvil.url, proxy.url, dbUrl)
    try {
      await sendDeposit(anvil.url, setup.tokenAddress, setup.depositAddress)
      const t0 = performance.now()
      // In chunks: one call for all of it would outlast an HTTP client's patience.
      for (let mined = 0; mined < HISTORY; mined += 1_000)
        await rpc(anvil.url, 'anvil_mine', [`0x${Math.min(1_000, HISTORY - mined).toString(16)}`])
      console.info(
        `chain: mined ${HISTORY} blocks in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      )
      const head = await blockNumber(anvil.url)
      const started = performance.now()
      for (;;) {
        const report = await watcher.tick()
        if (report.scannedTo !== undefined && report.scannedTo >= head) break
      }
      const seconds = (performance.now() - started) / 1000
      const credited = await pool.query(
        `SELECT count(*)::int AS n FROM deposits WHERE status = 'credited'`,
      )
      if (credited.rows[0].n !== 1)
        throw new Error('the deposit before the history was not credited')
      if (proxy.refused()) throw new Error('a log read over the cap reached the provider')
      console.info(
        `chain: caught up ${HISTORY} blocks in ${seconds.toFixed(1)} s, ${proxy.ranges.length} log reads`,
      )
      return {
        group: 'chain',
        name: 'deposit scan catch-up through a 1,000-block log cap',
        size: `${HISTORY / 1000}k blocks`,
        value: seconds,
        unit: 's',
        budget: '≤ 60 s',
        ok: seconds <= 60,
      }
    } finally {
      await pool.end()
    }
  } finally {
    await proxy.close()
    anvil.stop()
  }
}

/** Blocks between a deposit's finality and its credit, 1-second blocks, a tick every 2 s. */
async function creditLatency(dbUrl: string): Promise<BenchRow> {
  const anvil = await ownAnvil(['--block-time', '1'])
  try {
    const { pool, setup, watcher } = await depositBench(anvil.url, anvil.url, dbUrl)
    try {
      let stop = false
      const ticking = (async () => {
        while (!stop) {
          await watcher.tick().catch(() => {})
          await sleep(2_000)
        }
      })()
      await sleep(3_000)
      const block = await sendDeposit(anvil.url, setup.tokenAddress, setup.depositAddress)
      const final = block + BigInt(CONFIRMATIONS) - 1n
      let creditedAt: bigint | null = null
      for (let i = 0; i < 600 && creditedAt === null; i++) {
        await sleep(100)
        const r = await pool.query(`SELECT 1 FROM deposits WHERE status = 'credited'`)
        if (r.rowCount) creditedAt = await blockNumber(anvil.url)
      }
      stop = true
      await ticking
      if (creditedAt === null) throw new Error('the deposit was not credited within a minute')
      const blocks = Number(creditedAt - final)
      console.info(`chain: credited ${blocks} block(s) after finality`)
      return {
        group: 'chain',
        name: 'deposit credit latency after finality',
        value: blocks,
        unit: 'blocks',
        budget: '≤ 2',
        ok: blocks <= 2,
      }
    } finally {
      await pool.end()
    }
  } finally {
    anvil.stop()
  }
}

export async function benchChain(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const server = await startBenchServer()
  try {
    console.info(`chain benchmark on ${os.cpus().length} cores`)
    if (HISTORY > 0)
      rows.push(await catchUp(await server.createDatabase('hope_bench_chain_catchup')))
    rows.push(await creditLatency(await server.createDatabase('hope_bench_chain_latency')))
  } finally {
    await server.stop()
  }
  for (const workers of [1, 2]) rows.push(await idleCalls(workers))
  return rows
}
