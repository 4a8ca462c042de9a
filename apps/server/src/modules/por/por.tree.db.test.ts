import { randomBytes } from 'node:crypto'
import { buildSnapshotTree, createProofFile, type ReserveSignature } from '@hope/por-verify'
import { describe, expect, test } from 'vitest'
import { createSettingsService } from '../settings/settings.service.ts'
import { databaseTargets, SEAL_KEY, useTestDatabase } from '../../testing/index.ts'
import { builtTreeOf } from '../../testing/por.ts'
import * as repo from './por.repository.ts'
import { createPorService } from './por.service.ts'
import { storeTree } from './por.tree.ts'

const REGISTRY = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const RESERVES: ReserveSignature[] = [
  {
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    message: 'HOPE proof of reserves',
    signature: `0x${'11'.repeat(65)}`,
  },
]

describe.each(databaseTargets())('a snapshot tree stored on $name', (target) => {
  const t = useTestDatabase(target)

  test('every user’s proof built on request is the one the whole tree makes', async () => {
    const accounts = Array.from({ length: 600 }, (_, i) => ({
      address: `0x${randomBytes(20).toString('hex')}`,
      usdt: BigInt(i % 7) * 1_000_000n,
      hope: BigInt(i % 3) * 10n ** 18n,
    }))
    const tree = buildSnapshotTree({ snapshotId: 1n, secret: randomBytes(32), accounts })
    // Big enough that the lowest siblings are recomputed from leaves read back.
    expect(tree.state.storedFrom).toBeLessThan(tree.height)
    const built = builtTreeOf(tree)
    await repo.insertSnapshot(t.db.pool, {
      id: 1,
      chainId: 31337,
      blockNumber: 90,
      blockHash: `0x${'aa'.repeat(32)}`,
      root: tree.root,
      users: accounts.length,
      leafCount: tree.leafCount,
      totalUsdt: tree.totals.usdt.toString(),
      totalHope: tree.totals.hope.toString(),
      inFlightUsdt: '0',
      reserves: [{ address: RESERVES[0]!.address, balance: '0' }],
      reservesUsdt: '0',
      tokenAddress: TOKEN,
      tokenDecimals: 6,
      registryAddress: REGISTRY,
      ledgerPosition: '0',
    })
    const bytes = await storeTree(t.db.pool, 1, built, { sealKey: SEAL_KEY, reserves: RESERVES })
    // Each node once: 68 bytes a leaf and a kept node, 33 an account.
    const kept = tree.state.upper.reduce((n, l) => n + l.count, 0)
    expect(bytes).toBe(68 * (tree.leafCount + kept) + 33 * accounts.length)
    await t.db.pool.query(`UPDATE por_snapshots SET status = 'published' WHERE id = 1`)

    const por = createPorService({
      pool: t.db.pool,
      settings: createSettingsService(t.db.pool),
      sealKey: () => SEAL_KEY,
    })
    const context = { chainId: 31337, registry: REGISTRY, token: TOKEN, blockNumber: 90n } as const
    for (const account of accounts.filter((_, i) => i % 15 === 0))
      expect(await por.myProof({ userName: account.address.toUpperCase() })).toEqual({
        ...createProofFile(tree, { ...context, reserves: RESERVES }, account.address),
      })
    expect(await por.myProof({ userName: `0x${'ee'.repeat(20)}` })).toBeNull()
    expect(await por.myProof({ userName: 'not-an-address' })).toBeNull()
    // Another key does not open the secret.
    const wrongKey = createPorService({
      pool: t.db.pool,
      settings: createSettingsService(t.db.pool),
      sealKey: () => Buffer.alloc(32, 1),
    })
    await expect(wrongKey.myProof({ userName: accounts[0]!.address })).rejects.toThrow(
      /POR_SEAL_KEY/,
    )
  })
})
