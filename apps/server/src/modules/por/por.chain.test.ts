import { chainReaders, checkBlockFor, porRegistryAbi } from '@hope/por-verify'
import {
  getAddress,
  hashMessage,
  recoverMessageAddress,
  type Address,
  type Hex,
  type PublicClient,
  verifyMessage,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { LocalChain } from '../../chain/anvil.ts'
import registry from '../../chain/contracts/PorRegistry.json' with { type: 'json' }
import token from '../../chain/contracts/TetherLikeToken.json' with { type: 'json' }
import {
  LOCAL_POR_RULES,
  LOCAL_ROLES,
  devAccount,
  type LocalChainSetup,
} from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import { porOnLocalChain } from '../../testing/por.ts'
import { startRpcProxy } from '../../testing/rpc-proxy.ts'
import {
  databaseTargets,
  fundAccount,
  insertTestUser,
  useTestDatabase,
} from '../../testing/index.ts'
import { openAlarms } from '../alarm/alarm.repository.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './por.repository.ts'
import { createPorPublisher, type BuildTree } from './por.publisher.ts'
import { buildTreeInWorker } from './por.tree.ts'
import { reserveMessage } from './por.rules.ts'
import { createPorService } from './por.service.ts'

const CONFIRMATIONS = 3

/** The tree as production builds it (a worker thread), stored as production stores it. */
const standInTree: BuildTree = buildTreeInWorker

describe('proof of liabilities on a local chain', () => {
  let anvil: LocalChain
  let setup: LocalChainSetup
  let settings: SettingsService
  let client: PublicClient
  const t = useTestDatabase(databaseTargets()[0]!)
  let publisher: ReturnType<typeof createPorPublisher>
  let por: ReturnType<typeof createPorService>

  let fixture: ChainFixture
  const rpc = (method: string, params: unknown[] = []) => fixture.rpc(method, params)
  const mine = (blocks: number) => fixture.mine(blocks)
  const registryLatest = async () =>
    Number(
      await client.readContract({
        address: setup.porRegistryAddress,
        abi: registry.abi,
        functionName: 'latestId',
      }),
    )
  const onRegistry = async (id: number) => {
    const { root, totalUsdt, totalHope, blockNumber } = await client.readContract({
      address: setup.porRegistryAddress,
      abi: porRegistryAbi,
      functionName: 'snapshots',
      args: [BigInt(id)],
    })
    return { root, totalUsdt, totalHope, blockNumber }
  }
  /** This chain through `rpcUrl` (Anvil's or a proxy's), its tree built as production builds it. */
  const onChain = (rpcUrl: string) => ({
    rpcUrl,
    chainId: anvil.chainId,
    hotWallet: setup.hotWalletAddress,
    buildTree: standInTree,
  })
  /** The chain's clock past the registry's minimum interval: the next snapshot may be taken. */
  const afterInterval = async () => {
    await rpc('evm_increaseTime', [Number(LOCAL_POR_RULES.minIntervalS)])
    await mine(1)
  }
  /** Blocks after a publication by which its check block is at the depth. */
  const SETTLE = CONFIRMATIONS + Number(LOCAL_POR_RULES.checkWindow)

  beforeAll(async () => {
    fixture = await startChainFixture()
    ;({ anvil, setup, client } = fixture)
    settings = await fixture.configure(t.db.pool, CONFIRMATIONS, { por: true })
    ;({ publisher, por } = porOnLocalChain(t.db.pool, settings, onChain(anvil.url)))
    const alice = await insertTestUser(t.db.pool, { address: devAccount(3).address })
    await fundAccount(t.db.pool, alice.id, '1234.5')
  })
  afterAll(async () => {
    await fixture?.stop()
  })

  test('the first snapshot is published on the registry and read back from it', async () => {
    // The payout float, minted in the chain's last block, at the depth.
    await mine(CONFIRMATIONS)
    expect(await publisher.tick()).toMatchObject({ taken: 1 })
    const pending = (await repo.pendingSnapshot(t.db.pool))!
    expect(pending).toMatchObject({ id: 1, status: 'pending', publishAttempts: 1 })
    const head = await client.getBlockNumber({ cacheTime: 0 })
    // B is at the depth when taken: the publish block came after.
    expect(BigInt(pending.blockNumber)).toBe(head - 1n - BigInt(CONFIRMATIONS) + 1n)
    // The payout vault's 100,000 USDT float at B; the deposit address and the hot wallet empty.
    expect(pending.reserves).toEqual([
      { address: setup.depositAddress, balance: '0' },
      { address: setup.hotWalletAddress, balance: '0' },
      { address: setup.payoutVaultAddress, balance: '100000000000' },
    ])

    // Not at the depth yet: still pending, and no second snapshot is taken meanwhile.
    expect(await publisher.tick()).toMatchObject({ taken: 0, published: 0 })
    // At the depth, but its check block not yet: users are not served it while it settles.
    await mine(CONFIRMATIONS - 1)
    const receipt = await client.getTransactionReceipt({ hash: pending.publishTxHash as Hex })
    const checkBlock = checkBlockFor(
      receipt.blockNumber,
      receipt.blockHash,
      LOCAL_POR_RULES.checkWindow,
    )
    const settledAt = checkBlock + BigInt(CONFIRMATIONS) - 1n
    const now = await client.getBlockNumber({ cacheTime: 0 })
    if (now < settledAt) {
      expect(await publisher.tick()).toMatchObject({ published: 0 })
      await mine(Number(settledAt - now))
    }
    expect(await publisher.tick()).toMatchObject({ published: 1, taken: 0 })

    const row = (await repo.snapshotById(t.db.pool, 1))!
    expect(row.status).toBe('published')
    const anchored = await onRegistry(1)
    expect(anchored).toEqual({
      root: row.root,
      totalUsdt: BigInt(row.totalUsdt),
      totalHope: BigInt(row.totalHope),
      blockNumber: BigInt(row.blockNumber),
    })
    expect(anchored.totalUsdt).toBeGreaterThanOrEqual(1_234_500_000n)
    expect(
      await client.readContract({
        address: setup.porRegistryAddress,
        abi: registry.abi,
        functionName: 'latestId',
      }),
    ).toBe(1n)

    const latest = await por.latest()
    expect(latest).toMatchObject({
      snapshotId: 1,
      root: row.root,
      registryAddress: getAddress(setup.porRegistryAddress),
      tokenAddress: getAddress(setup.tokenAddress),
      reservesUsdt: '100000',
    })
    // Each wallet signed its ownership message with its own key; the vault, a contract, by its
    // owner's, which the vault accepts as its own (EIP-1271) at block B.
    const [deposit, hot, vault] = latest.reserves
    expect(latest.reserves.map((r) => r.address)).toEqual([
      setup.depositAddress,
      setup.hotWalletAddress,
      setup.payoutVaultAddress,
    ])
    for (const r of [deposit!, hot!])
      expect(
        await verifyMessage({
          address: r.address as Address,
          message: r.message,
          signature: r.signature as Hex,
        }),
      ).toBe(true)
    expect(vault).toMatchObject({
      balance: '100000',
      message: reserveMessage(
        setup.payoutVaultAddress,
        anvil.chainId,
        setup.porRegistryAddress,
        setup.tokenAddress,
      ),
    })
    expect(
      await recoverMessageAddress({ message: vault!.message, signature: vault!.signature as Hex }),
    ).toBe(devAccount(LOCAL_ROLES.vaultOwner).address)
    expect(
      await chainReaders(client).readContractSignature({
        address: vault!.address as Hex,
        hash: hashMessage(vault!.message),
        signature: vault!.signature as Hex,
        blockNumber: BigInt(latest.blockNumber),
      }),
    ).toBe(true)
    const proof = (await por.myProof({ userName: devAccount(3).address })) as Record<
      string,
      unknown
    >
    expect(proof).toMatchObject({
      snapshotId: '1',
      address: devAccount(3).address.toLowerCase(),
      balance: { usdt: '1234500000' },
    })
    expect(proof.reserves).toHaveLength(3)
  })

  test('a reorg that drops the publish transaction is noticed and the snapshot published again', async () => {
    await afterInterval()
    await repo.requestSnapshot(t.db.pool, 'test')
    expect(await publisher.tick()).toMatchObject({ taken: 1 })
    const sent = (await repo.pendingSnapshot(t.db.pool))!
    const dropped = sent.publishTxHash as Hex
    expect(await client.getTransactionReceipt({ hash: dropped })).toBeTruthy()

    // The block holding the publish transaction is replaced by an empty one.
    await rpc('anvil_reorg', [1, []])
    await expect(client.getTransactionReceipt({ hash: dropped })).rejects.toThrow()
    expect(await publisher.tick()).toMatchObject({ republished: 1, published: 0 })
    const again = (await repo.pendingSnapshot(t.db.pool))!
    expect(again.publishAttempts).toBe(2)
    expect((await onRegistry(sent.id)).root).toBe(sent.root)

    await mine(SETTLE)
    expect(await publisher.tick()).toMatchObject({ published: 1 })
    expect((await repo.snapshotById(t.db.pool, sent.id))!.status).toBe('published')
    expect((await onRegistry(sent.id)).root).toBe(sent.root)
    expect((await por.latest()).snapshotId).toBe(sent.id)
  })

  test('a snapshot whose block B leaves the chain is void, and the next one replaces it', async () => {
    // The last publish deeper than the reorg below: only this snapshot's blocks go.
    await mine(CONFIRMATIONS + 4)
    await afterInterval()
    await repo.requestSnapshot(t.db.pool, 'test')
    expect(await publisher.tick()).toMatchObject({ taken: 1 })
    const voided = (await repo.pendingSnapshot(t.db.pool))!
    // Deeper than the confirmations: block B itself is replaced.
    await rpc('anvil_reorg', [CONFIRMATIONS + 2, []])
    await afterInterval()
    const report = await publisher.tick()
    expect(report).toMatchObject({ reorged: 1, taken: 1 })
    // The registry never held the void one: the next takes its id, at another block.
    const next = (await repo.pendingSnapshot(t.db.pool))!
    expect(next.id).toBe(voided.id)
    expect(next.blockHash).not.toBe(voided.blockHash)
    await mine(SETTLE)
    expect(await publisher.tick()).toMatchObject({ published: 1 })
    expect((await onRegistry(next.id)).root).toBe(next.root)
  })

  test('proofs past the retention days are dropped, the snapshots stay', async () => {
    await t.db.pool.query(
      `UPDATE por_snapshots SET taken_at = now() - interval '31 days' WHERE id = 1`,
    )
    expect((await publisher.tick()).proofsDropped).toBeGreaterThan(0)
    // The tree goes, its sealed secret with it: no proof of it can be built any more.
    expect(await repo.treeOf(t.db.pool, 1)).toBeNull()
    expect(await repo.snapshotById(t.db.pool, 1)).toMatchObject({ status: 'published' })
  })

  /** The registry's `publish`, sent directly by dev account `index` (the owner is the deployer). */
  const publishDirect = async (
    index: number,
    args: {
      id: bigint
      block: bigint
      token?: Address
      reserves?: Address[]
      root?: Hex
      ledgerCut?: bigint
      leafCount?: bigint
    },
  ) => {
    const hash = await fixture.wallet(index).writeContract({
      address: setup.porRegistryAddress,
      abi: registry.abi,
      functionName: 'publish',
      args: [
        args.id,
        args.root ?? `0x${'11'.repeat(32)}`,
        1n,
        1n,
        args.block,
        args.token ?? setup.tokenAddress,
        args.ledgerCut ?? 10n ** 9n,
        args.leafCount ?? 3n,
        args.reserves ??
          [setup.depositAddress, setup.hotWalletAddress].sort((a, b) =>
            a.toLowerCase().localeCompare(b.toLowerCase()),
          ),
      ],
    })
    return client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  }

  test('one commitment per moment: the owner only, the next id, a later block, each reserve once', async () => {
    await afterInterval()
    const latest = await registryLatest()
    const previous = (await onRegistry(latest)).blockNumber
    const next = BigInt(latest + 1)
    const later = previous + 1n
    const [a, b] = [setup.depositAddress, setup.hotWalletAddress].sort((x, y) =>
      x.toLowerCase().localeCompare(y.toLowerCase()),
    ) as [Address, Address]
    await expect(publishDirect(5, { id: next, block: later })).rejects.toThrow(/only owner/)
    const owner = LOCAL_ROLES.deployer
    await expect(publishDirect(owner, { id: next + 1n, block: later })).rejects.toThrow(
      /id not next/,
    )
    await expect(publishDirect(owner, { id: BigInt(latest), block: later })).rejects.toThrow(
      /id not next/,
    )
    // Two snapshots at one block, the users split between them: refused.
    await expect(publishDirect(owner, { id: next, block: previous })).rejects.toThrow(
      /block not after the previous snapshot/,
    )
    await expect(
      publishDirect(owner, { id: next, block: later, reserves: [b, a] }),
    ).rejects.toThrow(/reserves not ascending/)
    await expect(
      publishDirect(owner, { id: next, block: later, reserves: [a, a] }),
    ).rejects.toThrow(/reserves not ascending/)
    await expect(
      publishDirect(owner, { id: next, block: later, token: devAccount(7).address }),
    ).rejects.toThrow(/token has no code/)
    expect(Number((await onRegistry(latest + 1)).blockNumber)).toBe(0)
  })

  test('never on demand, never from the past: the interval, the age of block B, the leaves', async () => {
    // Publish what the tests before left pending, then try the registry's rules directly.
    await mine(SETTLE)
    await publisher.tick()
    const owner = LOCAL_ROLES.deployer
    const latest = await registryLatest()
    const next = BigInt(latest + 1)
    const { publishedAt } = await client.readContract({
      address: setup.porRegistryAddress,
      abi: porRegistryAbi,
      functionName: 'snapshots',
      args: [BigInt(latest)],
    })
    const head = async () => client.getBlock({ blockTag: 'latest' })
    // On demand: within a minute of the previous publication (the local registry's interval).
    if ((await head()).timestamp < publishedAt + LOCAL_POR_RULES.minIntervalS - 5n)
      await expect(
        publishDirect(owner, { id: next, block: (await head()).number - 1n }),
      ).rejects.toThrow(/too soon/)
    await afterInterval()
    const now = (await head()).number
    // A block B older than the registry allows.
    await mine(Number(LOCAL_POR_RULES.maxBlockAge) + 2)
    await expect(publishDirect(owner, { id: next, block: now })).rejects.toThrow(/block too old/)
    const recent = (await head()).number - 1n
    await expect(publishDirect(owner, { id: next, block: recent, leafCount: 0n })).rejects.toThrow(
      /leaf count/,
    )
  })

  test('a node behind that answers null for block B is retried, never taken for a reorg', async () => {
    const proxy = await startRpcProxy(anvil.url)
    try {
      const lagging = porOnLocalChain(t.db.pool, settings, onChain(proxy.url)).publisher
      await mine(SETTLE)
      await publisher.tick()
      await afterInterval()
      await repo.requestSnapshot(t.db.pool, 'test')
      expect(await lagging.tick()).toMatchObject({ taken: 1 })
      const pending = (await repo.pendingSnapshot(t.db.pool))!
      proxy.fail('eth_getBlockByNumber', 'null')
      for (let i = 0; i < 3; i++)
        expect(await lagging.tick()).toMatchObject({ reorged: 0, taken: 0, published: 0 })
      expect(proxy.faulted('eth_getBlockByNumber')).toBeGreaterThan(0)
      expect(await repo.snapshotById(t.db.pool, pending.id)).toMatchObject({ status: 'pending' })
      proxy.heal()
      await mine(SETTLE)
      expect(await lagging.tick()).toMatchObject({ published: 1, reorged: 0 })
    } finally {
      await proxy.close()
    }
  })

  test('a registry ahead of the books (restored from an older copy): ids continue above it', async () => {
    const latest = await registryLatest()
    const ahead = BigInt(latest + 1)
    await afterInterval()
    await publishDirect(LOCAL_ROLES.deployer, {
      id: ahead,
      block: (await client.getBlockNumber({ cacheTime: 0 })) - 1n,
      root: `0x${'22'.repeat(32)}`,
    })
    await mine(1)
    await afterInterval()
    await repo.requestSnapshot(t.db.pool, 'test')
    expect(await publisher.tick()).toMatchObject({ taken: 1 })
    const next = (await repo.pendingSnapshot(t.db.pool))!
    expect(BigInt(next.id)).toBe(ahead + 1n)
    await mine(SETTLE)
    expect(await publisher.tick()).toMatchObject({ published: 1 })
    expect((await onRegistry(next.id)).root).toBe(next.root)
  })

  test('reserves below what users are owed raise the alarm; covered again, it is resolved', async () => {
    const whale = await insertTestUser(t.db.pool)
    await fundAccount(t.db.pool, whale.id, '200000')
    await afterInterval()
    await repo.requestSnapshot(t.db.pool, 'test')
    expect(await publisher.tick()).toMatchObject({ taken: 1 })
    const short = (await openAlarms(t.db.pool)).filter((a) => a.kind === 'por_shortfall')
    expect(short).toHaveLength(1)
    expect(short[0]!.detail).toMatchObject({
      snapshotId: (await repo.pendingSnapshot(t.db.pool))!.id,
    })
    await mine(SETTLE)
    await publisher.tick()

    // The platform tops up its hot wallet: the next snapshot is covered.
    const wallet = fixture.wallet(LOCAL_ROLES.deployer)
    const tx = await wallet.writeContract({
      address: setup.tokenAddress,
      abi: token.abi,
      functionName: 'transfer',
      args: [setup.hotWalletAddress as Address, 500_000_000_000n],
    })
    await client.waitForTransactionReceipt({ hash: tx, pollingInterval: 50 })
    await mine(CONFIRMATIONS)
    await afterInterval()
    await repo.requestSnapshot(t.db.pool, 'test')
    expect(await publisher.tick()).toMatchObject({ taken: 1 })
    expect((await openAlarms(t.db.pool)).filter((a) => a.kind === 'por_shortfall')).toHaveLength(0)
  })
  test('a chain read that fails is retried, never taken for a reorg or a dropped transaction', async () => {
    const proxy = await startRpcProxy(anvil.url)
    try {
      const flaky = porOnLocalChain(t.db.pool, settings, onChain(proxy.url)).publisher
      // Whatever the tests before left pending is published first.
      await mine(SETTLE)
      await publisher.tick()
      expect(await repo.pendingSnapshot(t.db.pool)).toBeNull()
      await mine(1)
      await afterInterval()
      await repo.requestSnapshot(t.db.pool, 'test')
      expect(await flaky.tick()).toMatchObject({ taken: 1 })
      const pending = (await repo.pendingSnapshot(t.db.pool))!
      const reads = [
        'eth_getBlockByNumber',
        'eth_getTransactionReceipt',
        'eth_getTransactionByHash',
      ]
      for (const [failing, fault] of [
        [reads, 'rpc_error'],
        [reads, 'http_500'],
        // The block reads, the transaction does not: not "dropped" either.
        [reads.slice(1), 'rpc_error'],
      ] as const) {
        for (const method of failing) proxy.fail(method, fault)
        await flaky.tick().catch(() => null)
        expect(await repo.snapshotById(t.db.pool, pending.id)).toMatchObject({
          status: 'pending',
          publishTxHash: pending.publishTxHash,
          publishAttempts: pending.publishAttempts,
        })
        proxy.heal()
      }
      expect(proxy.faulted('eth_getTransactionReceipt')).toBeGreaterThan(0)
      await mine(SETTLE)
      expect(await flaky.tick()).toMatchObject({ published: 1, reorged: 0, republished: 0 })
    } finally {
      await proxy.close()
    }
  })
})
