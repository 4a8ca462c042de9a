import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { connectChain, type ChainConnection } from '../../chain/chain.service.ts'
import { devAccount, type LocalChainSetup } from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import { databaseTargets, insertTestUser, useTestDatabase } from '../../testing/index.ts'
import { startLogRangeProxy, type LogRangeProxy } from '../../testing/log-range-proxy.ts'
import { createLedgerService } from '../ledger/ledger.service.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import { createChainScan } from '../reconcile/reconcile.scan.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { createDepositWatcher } from './deposit.watcher.ts'

const CONFIRMATIONS = 3
const CAP = 500
const HISTORY = 1_500

/**
 * The deposit watcher and the chain scan through the one chain client over two endpoints that
 * behave like hosted providers: log ranges capped, one lagging the head and rate-limited, the
 * other dropping calls, over a chain with history mined before the start.
 */
describe('deposits through providers that cap, lag, rate-limit and drop', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  let fixture: ChainFixture
  let setup: LocalChainSetup
  let lagging: LogRangeProxy
  let dropping: LogRangeProxy
  let chain: ChainConnection
  let settings: SettingsService
  let alice: { id: number }

  const deposit = async (amount: string) =>
    (await fixture.sendUsdt(3, setup.depositAddress as Address, amount)).hash.toLowerCase()
  const head = () => fixture.client.getBlockNumber({ cacheTime: 0 })

  beforeAll(async () => {
    fixture = await startChainFixture()
    setup = fixture.setup
    settings = await fixture.configure(t.db.pool, CONFIRMATIONS)
    await settings.set('chainLogRange', CAP, 'test')
    alice = await insertTestUser(t.db.pool, { address: devAccount(3).address })
    lagging = await startLogRangeProxy(fixture.anvil.url)
    dropping = await startLogRangeProxy(fixture.anvil.url)
    for (const p of [lagging, dropping]) p.capRange(CAP)
    lagging.lag(3)
    lagging.rateLimit(4)
    dropping.drop(7)
    chain = connectChain([lagging.url, dropping.url], fixture.anvil.chainId, {
      timeoutMs: 1_000,
      rounds: 3,
      backoffMs: 10,
    })
  }, 120_000)
  afterAll(async () => {
    await lagging?.close()
    await dropping?.close()
    await fixture?.stop()
  })

  test('deposits before and after a long history are credited once, with no false reorg and no log read over the cap', async () => {
    const early = await deposit('7')
    await fixture.mine(HISTORY)
    const late = await deposit('3.25')
    await fixture.mine(CONFIRMATIONS + 3)
    const watcher = createDepositWatcher({
      pool: t.db.pool,
      ledger: createLedgerService(t.db.pool),
      settings,
      client: chain.client,
      chainId: chain.chainId,
    })
    let reorged = 0
    let credited = 0
    for (let i = 0; i < 30 && credited < 2; i++) {
      const report = await watcher.tick().catch(() => null)
      reorged += report?.reorged ?? 0
      credited += report?.credited ?? 0
      await fixture.mine(1)
    }
    expect(reorged).toBe(0)
    expect(credited).toBe(2)
    const rows = await t.db.pool.query('SELECT tx_hash, status FROM deposits ORDER BY id')
    expect(rows.rows).toEqual([
      { tx_hash: early, status: 'credited' },
      { tx_hash: late, status: 'credited' },
    ])

    // More ticks change nothing.
    for (let i = 0; i < 5; i++) {
      const report = await watcher.tick().catch(() => null)
      expect(report?.reorged ?? 0).toBe(0)
      expect(report?.credited ?? 0).toBe(0)
      await fixture.mine(1)
    }
    const usdt = await t.db.pool.query(
      `SELECT balance::text AS b FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt'`,
      [alice.id],
    )
    expect(usdt.rows[0].b).toBe('10.250000000000000000')
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])

    // The vault scan over the same history through the same client: caught up, nothing raised.
    const scan = createChainScan({
      pool: t.db.pool,
      ledger: createLedgerService(t.db.pool),
      settings,
      client: chain.client,
      chainId: chain.chainId,
      hotWallet: null,
    })
    let caughtUp = false
    for (let i = 0; i < 20 && !caughtUp; i++) {
      const report = await scan.tick().catch(() => null)
      if (report) expect(report.alarms).toBe(0)
      caughtUp = report?.caughtUp ?? false
    }
    expect(caughtUp).toBe(true)

    // No log read over the cap reached either provider, and both were used.
    for (const p of [lagging, dropping]) {
      for (const r of p.ranges) expect(r.to - r.from + 1n).toBeLessThanOrEqual(BigInt(CAP))
      expect(p.refused()).toBe(0)
    }
    expect(lagging.ranges.length + dropping.ranges.length).toBeGreaterThanOrEqual(
      Math.ceil(HISTORY / CAP),
    )
    expect(chain.endpoints.stats().every((e) => e.calls > 0)).toBe(true)
    expect(await head()).toBeGreaterThan(BigInt(HISTORY))
  })
})
