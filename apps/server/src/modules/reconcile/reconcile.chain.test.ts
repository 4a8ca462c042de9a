import { randomBytes } from 'node:crypto'
import Fastify from 'fastify'
import { erc20Abi, type Address, type Hex, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { LOCAL_ROLES, devAccount, devAddress } from '../../chain/local-chain.ts'
import { PAYOUT_VAULT_ABI } from '../../chain/payout-vault.ts'
import { connectChain } from '../../chain/chain.service.ts'
import { registerMetrics, type AppMetrics } from '../../plugins/metrics.ts'
import { createDependencyProbe } from '../../plugins/health.ts'
import { createMemoryLimitStore } from '../../lib/limit-store.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import { startLogRangeProxy, type LogRangeProxy } from '../../testing/log-range-proxy.ts'
import { approvedWithdrawal as approvedWithdrawalOf } from '../../testing/payouts.ts'
import { databaseTargets, insertTestUser, keyMaker, useTestDatabase } from '../../testing/index.ts'
import { createLedgerService } from '../ledger/ledger.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { createReconcileJob } from './reconcile.job.ts'
import { createChainScan, MAX_RANGES_PER_TICK, type ScanLog } from './reconcile.scan.ts'
import { reconcileChain } from './reconcile.service.ts'

/** Every block is final at once: the scan reads to the head. */
const CONFIRMATIONS = 1
const HOT = devAddress(LOCAL_ROLES.hotWallet)

describe('the reconciliation asks the chain', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  const key = keyMaker('reconcile')
  let fixture: ChainFixture
  let settings: SettingsService
  let proxy: LogRangeProxy
  /** The scan's own client, through the proxy that writes down (and may refuse) log reads. */
  let client: PublicClient
  let vault: Address
  let metrics: AppMetrics
  const said: { level: keyof ScanLog; msg: string; extra: object }[] = []
  const log: ScanLog = {
    info: (extra, msg) => said.push({ level: 'info', msg, extra }),
    warn: (extra, msg) => said.push({ level: 'warn', msg, extra }),
    error: (extra, msg) => said.push({ level: 'error', msg, extra }),
  }

  const deps = () => ({
    pool: t.db.pool,
    ledger: createLedgerService(t.db.pool),
    settings,
    client,
    chainId: fixture.anvil.chainId,
    hotWallet: HOT,
    log,
    alarmRaised: (kind: Parameters<AppMetrics['chainAlarmRaised']>[0]) =>
      metrics.chainAlarmRaised(kind),
  })
  const job = () => createReconcileJob(deps())

  const alarmsOf = async (txHash: string) =>
    (
      await t.db.pool.query<{ kind: string; message: string; detail: Record<string, unknown> }>(
        `SELECT kind, message, detail FROM operator_alarms WHERE detail->>'txHash' = $1`,
        [txHash.toLowerCase()],
      )
    ).rows
  const counted = async (kind: string) => {
    const metric = metrics.registry.getSingleMetric('hope_chain_unexplained_outflows_total')!
    return (await metric.get()).values.find((v) => v.labels.kind === kind)?.value
  }
  /** The open alarms of `kind` as a scrape reports them, read from the books. */
  const openGauge = async (kind: string) => {
    const text = await metrics.registry.metrics()
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`hope_chain_alarms_open{kind="${kind}"} `))
    return line === undefined ? undefined : Number(line.split(' ')[1])
  }
  const checkpoint = async () =>
    BigInt(
      (
        await t.db.pool.query<{ block: string }>(
          'SELECT block::text FROM chain_scan_checkpoints WHERE name = $1',
          [`payout-vault:${vault.toLowerCase()}`],
        )
      ).rows[0]!.block,
    )
  const head = () => fixture.client.getBlockNumber({ cacheTime: 0 })

  /** The hot wallet (the vault's payer) calls `pay` itself, as a tricked signer would. */
  async function payFromVault(payoutId: Hex, to: Address, units: bigint): Promise<Hex> {
    const hash = await fixture.wallet(LOCAL_ROLES.hotWallet).writeContract({
      address: vault,
      abi: PAYOUT_VAULT_ABI,
      functionName: 'pay',
      args: [payoutId, to, units],
    })
    const receipt = await fixture.client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    expect(receipt.status).toBe('success')
    return hash
  }

  /** An approved withdrawal of `amount` USDT to a new user's own wallet. */
  async function approvedWithdrawal(amount: string) {
    const { user, id } = await approvedWithdrawalOf(t.db.pool, fixture.anvil.chainId, amount, {
      idempotencyKey: key(),
      operator: 'scan-fin',
    })
    const row = (
      await t.db.pool.query<{ payout_id: Hex }>('SELECT payout_id FROM withdrawals WHERE id = $1', [
        id,
      ])
    ).rows[0]!
    return { id, to: user.userName as Address, payoutId: row.payout_id }
  }
  const statusOf = async (id: number) =>
    (await t.db.pool.query('SELECT status FROM withdrawals WHERE id = $1', [id])).rows[0]
      .status as number

  beforeAll(async () => {
    fixture = await startChainFixture()
    settings = await fixture.configure(t.db.pool, CONFIRMATIONS)
    vault = (await settings.get()).payoutVaultAddress as Address
    proxy = await startLogRangeProxy(fixture.anvil.url)
    client = fixture.clientVia(proxy.url)
    const chain = connectChain(fixture.anvil.url, fixture.anvil.chainId)
    metrics = registerMetrics(Fastify(), {
      pool: t.db.pool,
      chain,
      token: undefined,
      tokenAddress: async () => fixture.setup.tokenAddress,
      tokenDecimals: async () => 6,
      vaultAddress: async () => vault,
      signIns: () => ({ legacy: 0, siwe: 0 }),
      dependencies: createDependencyProbe({
        pool: t.db.pool,
        chain,
        limits: createMemoryLimitStore(),
      }),
    })
  })
  afterAll(async () => {
    await proxy?.close()
    await fixture?.stop()
  })

  test("the first tick starts at the vault's deployment, not at block 0, and finds nothing amiss", async () => {
    const deployed = BigInt((await settings.get()).payoutVaultDeployBlock)
    expect(deployed).toBeGreaterThan(0n)
    const report = await job().tick()
    expect(report).toMatchObject({ caughtUp: true, alarms: 0, problems: expect.any(Number) })
    expect(proxy.ranges[0]!.from).toBe(deployed)
    expect(await checkpoint()).toBe(await head())
    expect(await counted('payout_unknown')).toBe(0)
    expect(await openGauge('payout_unknown')).toBe(0)
  })

  test('a payout made outside the app is reported by the next tick, once, and counted', async () => {
    const payoutId = `0x${randomBytes(32).toString('hex')}` as Hex
    const to = devAddress(7)
    const hash = await payFromVault(payoutId, to, 3_500_000n)

    const report = await job().tick()
    expect(report).toMatchObject({ alarms: 1, payouts: 1 })
    const [alarm, ...more] = await alarmsOf(hash)
    expect(more).toEqual([])
    expect(alarm!.kind).toBe('payout_unknown')
    for (const part of [hash.toLowerCase(), payoutId, to.toLowerCase(), '3.5 USDT'])
      expect(alarm!.message).toContain(part)
    expect(alarm!.detail).toMatchObject({ payoutId, to: to.toLowerCase(), amount: '3.5' })
    expect(await counted('payout_unknown')).toBe(1)
    expect(await openGauge('payout_unknown')).toBe(1)
    expect(said.some((s) => s.level === 'error' && s.msg.includes(hash.toLowerCase()))).toBe(true)

    // The report names it with its hash, and the line of unknown payouts differs.
    const again = await job().tick()
    expect(again).toMatchObject({ alarms: 0 })
    expect(await alarmsOf(hash)).toHaveLength(1)
    expect(await counted('payout_unknown')).toBe(1)
    const books = await reconcileChain(deps())
    expect(books.findings).toContainEqual(
      expect.objectContaining({ kind: 'payout_unknown', txHash: hash.toLowerCase() }),
    )
    expect(books.problems).toContainEqual(
      expect.stringMatching(/^vault payouts the books do not know: chain 3\.5 but books 0/),
    )
  })

  test('a payout that differs from its withdrawal raises an alarm; one the books missed is learned', async () => {
    const differs = await approvedWithdrawal('20')
    const wrongAmount = await payFromVault(differs.payoutId, differs.to, 21_000_000n)
    const missed = await approvedWithdrawal('15')
    // Paid on chain while the books still say approved (as after a restore of the database).
    const restored = await payFromVault(missed.payoutId, missed.to, 15_000_000n)

    said.length = 0
    expect(await job().tick()).toMatchObject({ alarms: 1, learned: 1 })
    const [mismatch] = await alarmsOf(wrongAmount)
    expect(mismatch).toMatchObject({
      kind: 'payout_mismatch',
      detail: expect.objectContaining({ withdrawalId: differs.id, amount: '21' }),
    })
    expect(mismatch!.message).toContain(wrongAmount.toLowerCase())
    expect(await counted('payout_mismatch')).toBe(1)
    expect(await alarmsOf(restored)).toEqual([])
    expect(await statusOf(missed.id)).toBe(5)
    expect(said).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: `the chain paid withdrawal ${missed.id}; the books learned it from the vault`,
      }),
    )
  })

  test('tokens out of the hot wallet or the deposit address are unexplained outflows', async () => {
    const deposit = devAddress(LOCAL_ROLES.deposit)
    await fixture.sendUsdt(3, deposit, '5')
    await fixture.sendUsdt(3, HOT, '5')
    const fromDeposit = await fixture.sendUsdt(LOCAL_ROLES.deposit, devAddress(8), '2')
    const fromHot = await fixture.sendUsdt(LOCAL_ROLES.hotWallet, devAddress(8), '1.25')

    expect(await job().tick()).toMatchObject({ alarms: 2 })
    const [a] = await alarmsOf(fromDeposit.hash)
    const [b] = await alarmsOf(fromHot.hash)
    expect(a).toMatchObject({ kind: 'unexplained_outflow', detail: { amount: '2' } })
    expect(a!.message).toContain('the deposit address')
    expect(b).toMatchObject({ kind: 'unexplained_outflow', detail: { amount: '1.25' } })
    expect(b!.message).toContain(fromHot.hash.toLowerCase())
    expect(await counted('unexplained_outflow')).toBe(2)
  })

  test('the owner moving the float to cold storage is reported, not alarmed', async () => {
    const owner = LOCAL_ROLES.vaultOwner
    await fixture.rpc('anvil_setBalance', [devAddress(owner), '0xde0b6b3a7640000'])
    const hash = await fixture.wallet(owner).writeContract({
      address: vault,
      abi: [
        {
          type: 'function',
          name: 'moveToCold',
          stateMutability: 'nonpayable',
          inputs: [
            { name: 'to', type: 'address' },
            { name: 'amount', type: 'uint256' },
          ],
          outputs: [],
        },
      ],
      functionName: 'moveToCold',
      args: [devAddress(9), 1_000_000n],
    })
    await fixture.client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    said.length = 0
    expect(await job().tick()).toMatchObject({ alarms: 0, movedToCold: 1 })
    expect(await alarmsOf(hash)).toEqual([])
    expect(said).toContainEqual(
      expect.objectContaining({ level: 'info', msg: expect.stringContaining('cold address') }),
    )
  })

  test('the scan resumes from its checkpoint, in ranges of at most chainLogRange blocks', async () => {
    await settings.set('chainLogRange', 5, 'test')
    const from = (await checkpoint()) + 1n
    await fixture.mine(30)
    proxy.clear()
    expect(await createChainScan(deps()).tick()).toMatchObject({ caughtUp: true })
    const last = await head()
    // Two reads per range (the vault's events, the token's transfers), each the same blocks.
    const ranges = proxy.ranges.filter((_, i) => i % 2 === 0)
    expect(proxy.ranges.filter((_, i) => i % 2 === 1)).toEqual(ranges)
    expect(ranges[0]!.from).toBe(from)
    expect(ranges.at(-1)!.to).toBe(last)
    for (const [i, r] of ranges.entries()) {
      expect(r.to - r.from + 1n).toBeLessThanOrEqual(5n)
      if (i) expect(r.from).toBe(ranges[i - 1]!.to + 1n)
    }
    expect(await checkpoint()).toBe(last)

    // The next tick reads only the blocks mined since.
    await fixture.mine(3)
    proxy.clear()
    await createChainScan(deps()).tick()
    expect(proxy.ranges).toEqual([
      { from: last + 1n, to: last + 3n },
      { from: last + 1n, to: last + 3n },
    ])
  })

  test('one tick reads a bounded number of ranges; the next goes on from there', async () => {
    await settings.set('chainLogRange', 1, 'test')
    const from = (await checkpoint()) + 1n
    await fixture.mine(MAX_RANGES_PER_TICK + 10)
    const first = await createChainScan(deps()).tick()
    expect(first).toMatchObject({
      caughtUp: false,
      scannedTo: from + BigInt(MAX_RANGES_PER_TICK) - 1n,
    })
    expect(await createChainScan(deps()).tick()).toMatchObject({
      caughtUp: true,
      scannedTo: await head(),
    })
  })

  test('two processes ticking at once: one scans, the other finds the lock taken', async () => {
    await settings.set('chainLogRange', 5, 'test')
    await fixture.mine(10)
    // The head is asked under the lock: slowed, the first tick holds it while the second tries.
    proxy.slow('eth_blockNumber', 300)
    try {
      const reports = await Promise.all([
        createChainScan(deps()).tick(),
        createChainScan(deps()).tick(),
      ])
      expect(reports.map((r) => r.skipped ?? 'scanned').sort()).toEqual(['locked', 'scanned'])
    } finally {
      proxy.slow('eth_blockNumber', 0)
    }
    expect(await checkpoint()).toBe(await head())
  })

  test('a reorganisation that replaced the last block scanned makes the scan read again from the deployment, raising nothing twice', async () => {
    await settings.set('chainLogRange', 2_000, 'test')
    await createChainScan(deps()).tick()
    const alarms = await t.db.pool.query('SELECT count(*)::int AS n FROM operator_alarms')
    await fixture.rpc('anvil_reorg', [2, []])
    proxy.clear()
    said.length = 0
    expect(await createChainScan(deps()).tick()).toMatchObject({ caughtUp: true, alarms: 0 })
    expect(proxy.ranges[0]!.from).toBe(BigInt((await settings.get()).payoutVaultDeployBlock))
    expect(said).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: expect.stringContaining('was replaced') }),
    )
    expect(await t.db.pool.query('SELECT count(*)::int AS n FROM operator_alarms')).toMatchObject({
      rows: alarms.rows,
    })
    expect(await checkpoint()).toBe(await head())
  })

  test('a provider refusing large ranges makes the scan halve its range and still finish', async () => {
    await settings.set('chainLogRange', 16, 'test')
    const from = (await checkpoint()) + 1n
    await fixture.mine(20)
    proxy.clear()
    proxy.capRange(3)
    try {
      expect(await createChainScan(deps()).tick()).toMatchObject({ caughtUp: true })
    } finally {
      proxy.capRange(null)
    }
    expect(proxy.refused()).toBeGreaterThan(0)
    const last = await head()
    expect(proxy.ranges[0]!.from).toBe(from)
    expect(proxy.ranges.at(-1)!.to).toBe(last)
    for (const r of proxy.ranges) expect(r.to - r.from + 1n).toBeLessThanOrEqual(3n)
    expect(await checkpoint()).toBe(last)
    // A payout made meanwhile is still found through the smaller ranges.
    proxy.capRange(2)
    try {
      const hash = await payFromVault(
        `0x${randomBytes(32).toString('hex')}`,
        devAccount(6).address,
        1_000_000n,
      )
      await fixture.mine(7)
      expect(await createChainScan(deps()).tick()).toMatchObject({ caughtUp: true, alarms: 1 })
      expect((await alarmsOf(hash))[0]?.kind).toBe('payout_unknown')
    } finally {
      proxy.capRange(null)
    }
  })

  test('a withdrawal approved around the service, without its ledger reservation, is named', async () => {
    const line = async () =>
      (await reconcileChain(deps())).lines.find(
        (l) => l.name === 'withdrawals approved or paid without their ledger reservation',
      )
    expect(await line()).toMatchObject({ chain: '0', problem: false })
    const genuine = await approvedWithdrawal('12')
    expect(await line()).toMatchObject({ chain: '0', problem: false })
    // A worker's database role may write withdrawals: an approved row pointing at another
    // user's reservation, and one pointing at none.
    const forger = await insertTestUser(t.db.pool)
    const reservation = (
      await t.db.pool.query<{ id: string }>(
        'SELECT amount_transfer_id::text AS id FROM withdrawals WHERE id = $1',
        [genuine.id],
      )
    ).rows[0]!.id
    for (const transfer of [reservation, '999999999'])
      await t.db.pool.query(
        `INSERT INTO withdrawals (user_id, chain_id, to_address, amount, fee, status, idempotency_key, amount_transfer_id)
         VALUES ($1, $2, $3, 12, 0, 1, $4, $5)`,
        [forger.id, fixture.anvil.chainId, forger.userName, key(), transfer],
      )
    expect(await line()).toMatchObject({ chain: '24', books: '0', problem: true })
  })

  test("the metrics show the vault's float as the chain has it", async () => {
    const units = await fixture.client.readContract({
      address: fixture.setup.tokenAddress,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [vault],
    })
    const text = await metrics.registry.metrics()
    const line = text.split('\n').find((l) => l.startsWith('hope_payout_vault_balance '))
    expect(Number(line?.split(' ')[1])).toBe(Number(units) / 1e6)
    expect(units).toBeGreaterThan(0n)
  })
})
