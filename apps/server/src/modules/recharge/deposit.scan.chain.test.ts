import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { devAccount, type LocalChainSetup } from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import { databaseTargets, insertTestUser, useTestDatabase } from '../../testing/index.ts'
import { startLogRangeProxy, type LogRangeProxy } from '../../testing/log-range-proxy.ts'
import { createLedgerService } from '../ledger/ledger.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { createDepositWatcher, MAX_RANGES_PER_TICK } from './deposit.watcher.ts'

const CONFIRMATIONS = 3
const RANGE = 40

/** The deposit scan against a provider that caps log ranges, over a chain with history. */
describe('deposit scan in bounded ranges', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  let fixture: ChainFixture
  let setup: LocalChainSetup
  let proxy: LogRangeProxy
  let settings: SettingsService
  let watcher: ReturnType<typeof createDepositWatcher>
  let alice: { id: number }
  let startBlock: bigint

  const head = () => fixture.client.getBlockNumber({ cacheTime: 0 })
  const deposit = async (amount: string) =>
    (await fixture.sendUsdt(3, setup.depositAddress as Address, amount)).hash
  const usdt = async () =>
    (
      await t.db.pool.query(
        `SELECT balance::text AS b FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt'`,
        [alice.id],
      )
    ).rows[0]?.b

  beforeAll(async () => {
    fixture = await startChainFixture()
    setup = fixture.setup
    proxy = await startLogRangeProxy(fixture.anvil.url)
    settings = await fixture.configure(t.db.pool, CONFIRMATIONS)
    alice = await insertTestUser(t.db.pool, { address: devAccount(3).address })
    watcher = createDepositWatcher({
      pool: t.db.pool,
      ledger: createLedgerService(t.db.pool),
      settings,
      client: fixture.clientVia(proxy.url),
      chainId: fixture.anvil.chainId,
    })
  })
  afterAll(async () => {
    await proxy?.close()
    await fixture?.stop()
  })

  test('the first scan starts at the deployment block from settings and reads no range over chainLogRange, halving when refused', async () => {
    // History before the deployment's start, a deposit at it, and a long stretch after.
    await fixture.mine(300)
    startBlock = (await head()) + 1n
    await settings.set('chainStartBlock', Number(startBlock), 'test')
    const hash = await deposit('12.5')
    await fixture.mine(4 * RANGE)
    await settings.set('chainLogRange', RANGE, 'test')
    // The provider refuses more than half of the setting: the scan halves and goes on.
    proxy.capRange(RANGE / 2)
    proxy.clear()

    let ticks = 0
    for (;;) {
      const report = await watcher.tick()
      ticks += 1
      expect(report.ranges).toBeLessThanOrEqual(MAX_RANGES_PER_TICK)
      if (report.scannedTo === (await head())) break
      expect(ticks).toBeLessThan(10)
    }
    expect(proxy.ranges[0]!.from).toBe(startBlock)
    for (const [i, r] of proxy.ranges.entries()) {
      expect(r.to - r.from + 1n).toBeLessThanOrEqual(BigInt(RANGE / 2))
      if (i) expect(r.from).toBe(proxy.ranges[i - 1]!.to + 1n)
    }
    expect(proxy.refused()).toBe(1)
    const rows = await t.db.pool.query('SELECT tx_hash, status FROM deposits')
    expect(rows.rows).toEqual([{ tx_hash: hash.toLowerCase(), status: 'credited' }])
    expect(await usdt()).toBe('12.500000000000000000')
  })

  test('the next ticks read only the new blocks, and an idle tick reads one range', async () => {
    await fixture.mine(2)
    proxy.clear()
    const from = (await head()) - 1n
    await watcher.tick()
    expect(proxy.ranges).toEqual([{ from, to: from + 1n }])
    proxy.clear()
    await watcher.tick()
    expect(proxy.ranges).toEqual([])
  })

  test('chain reads happen outside database transactions', async () => {
    await deposit('1')
    await fixture.mine(CONFIRMATIONS)
    // While the node is slow to answer the logs, no connection sits idle in a transaction.
    proxy.slow('eth_getLogs', 400)
    try {
      const ticking = watcher.tick()
      await new Promise((r) => setTimeout(r, 200))
      const idle = await t.db.pool.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND state = 'idle in transaction'`,
      )
      expect(idle.rows[0].n).toBe(0)
      expect(await ticking).toMatchObject({ seen: 1 })
    } finally {
      proxy.slow('eth_getLogs', 0)
    }
  })

  test('two processes ticking out of step scan as often as one: a run right after another is skipped', async () => {
    const other = () =>
      createDepositWatcher({
        pool: t.db.pool,
        ledger: createLedgerService(t.db.pool),
        settings,
        client: fixture.clientVia(proxy.url),
        chainId: fixture.anvil.chainId,
        minRunGapMs: 1_500,
      })
    const [a, b] = [other(), other()]
    await fixture.mine(1)
    proxy.clear()
    expect((await a.tick()).skipped).toBeUndefined()
    expect(await b.tick()).toMatchObject({ skipped: 'recent' })
    expect(proxy.calls.get('eth_getLogs') ?? 0).toBeLessThanOrEqual(1)
    await new Promise((r) => setTimeout(r, 1_600))
    expect((await b.tick()).skipped).toBeUndefined()
  })

  test('with chainFinality finalized a deposit is credited once the chain calls its block finalized, not at the confirmations', async () => {
    await settings.set('chainFinality', 'finalized', 'test')
    try {
      const hash = (await deposit('2')).toLowerCase()
      const status = async () =>
        (await t.db.pool.query('SELECT status FROM deposits WHERE tx_hash = $1', [hash])).rows[0]
          ?.status
      await fixture.mine(CONFIRMATIONS + 2)
      await watcher.tick()
      expect(await status()).toBe('on_chain')
      const finalized = async () =>
        (await fixture.client.getBlock({ blockTag: 'finalized' })).number
      const block = (await fixture.client.getTransactionReceipt({ hash: hash as `0x${string}` }))
        .blockNumber
      for (let i = 0; i < 20 && (await finalized()) < block; i++) await fixture.mine(10)
      await watcher.tick()
      expect(await status()).toBe('credited')
    } finally {
      await settings.set('chainFinality', 'confirmations', 'test')
    }
  })
})
