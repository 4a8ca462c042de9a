import { chainReaders, parseProofFile, verifyProof } from '@hope/por-verify'
import {
  createPublicClient,
  hashMessage,
  http,
  parseUnits,
  type Hex,
  type PublicClient,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { LocalChain } from '../../chain/anvil.ts'
import { LOCAL_ROLES, devAccount } from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import { porOnLocalChain } from '../../testing/por.ts'
import {
  databaseTargets,
  fundAccount,
  insertTestUser,
  useTestDatabase,
} from '../../testing/index.ts'
import { createPorPublisher } from './por.publisher.ts'
import { createPorService } from './por.service.ts'
import { buildTreeInWorker } from './por.tree.ts'

const CONFIRMATIONS = 2

describe('a published snapshot verifies against the chain alone', () => {
  let fixture: ChainFixture
  let anvil: LocalChain
  let client: PublicClient
  const t = useTestDatabase(databaseTargets()[0]!)
  let publisher: ReturnType<typeof createPorPublisher>
  let por: ReturnType<typeof createPorService>
  const users: { id: number; userName: string }[] = []

  beforeAll(async () => {
    fixture = await startChainFixture()
    ;({ anvil, client } = fixture)
    const settings = await fixture.configure(t.db.pool, CONFIRMATIONS, { por: true })
    ;({ publisher, por } = porOnLocalChain(t.db.pool, settings, {
      rpcUrl: anvil.url,
      chainId: anvil.chainId,
      hotWallet: fixture.setup.hotWalletAddress,
      buildTree: buildTreeInWorker,
    }))
    for (const [i, usdt, hope] of [
      [3, '1500.25', '0'],
      [4, '0', '12.000000000000000001'],
      [5, '99', '7'],
    ] as const) {
      const u = await insertTestUser(t.db.pool, { address: devAccount(i).address })
      if (usdt !== '0') await fundAccount(t.db.pool, u.id, usdt)
      if (hope !== '0') await fundAccount(t.db.pool, u.id, hope, 'community')
      users.push(u)
    }
  })
  afterAll(async () => {
    await fixture?.stop()
  })

  test('every user’s stored proof passes every check of the verifier', async () => {
    expect(await publisher.tick()).toMatchObject({ taken: 1 })
    await client.request({ method: 'anvil_mine' as never, params: ['0xa'] as never })
    expect(await publisher.tick()).toMatchObject({ published: 1 })
    const latest = await por.latest()
    expect(latest.coverage).not.toBeNull()
    for (const user of users) {
      const parsed = parseProofFile(await por.myProof(user))
      if (!parsed.ok) throw new Error(parsed.error)
      expect(parsed.proof.root).toBe(latest.root)
      // Pinned to the official registry and token (the settings), never the file's; now by the
      // chain's clock, which the tests move ahead of the machine's.
      const head = await client.getBlock()
      const result = await verifyProof(parsed.proof, chainReaders(client), {
        pinned: { registry: latest.registryAddress, token: latest.tokenAddress },
        now: Number(head.timestamp) * 1000,
      })
      expect(result.checks.filter((c) => !c.ok)).toEqual([])
      expect(result.ok).toBe(true)
      // The payout vault is among the reserves, vouched for on chain by its owner's signature.
      expect(parsed.proof.reserves.map((r) => r.address)).toContain(
        fixture.setup.payoutVaultAddress,
      )
      expect(result.checks.find((c) => c.id === 'reserve-signatures')!.detail).toMatch(
        /3 reserve address\(es\), each signed by its key or, for 1 contract\(s\), by its owner/,
      )
      // What the account log showed at the cut is what the proof proves.
      const statement = (await por.myStatement(user))!
      expect(statement.snapshotId).toBe(latest.snapshotId)
      expect(parseUnits(statement.usdt, 6)).toBe(BigInt(parsed.proof.balance.usdt))
      expect(parseUnits(statement.hopeAccounts, 18)).toBe(BigInt(parsed.proof.balance.hope))
    }
    // A move after the cut is not in that moment's statement.
    await fundAccount(t.db.pool, users[0]!.id, '5')
    const after = (await por.myStatement(users[0]!))!
    expect(after.usdt).toBe('1500.25')
  })

  test('the vault’s statement signed by another key than its owner’s fails on chain', async () => {
    const latest = await por.latest()
    const parsed = parseProofFile(await por.myProof(users[0]!))
    if (!parsed.ok) throw new Error(parsed.error)
    const vault = fixture.setup.payoutVaultAddress.toLowerCase()
    // The hot wallet (the vault's payer, a platform key, but not the vault's owner) signs for it.
    const forged = {
      ...parsed.proof,
      reserves: await Promise.all(
        parsed.proof.reserves.map(async (r) =>
          r.address.toLowerCase() === vault
            ? {
                ...r,
                signature: await devAccount(LOCAL_ROLES.hotWallet).signMessage({
                  message: r.message,
                }),
              }
            : r,
        ),
      ),
    }
    const head = await client.getBlock()
    const result = await verifyProof(forged, chainReaders(client), {
      pinned: { registry: latest.registryAddress, token: latest.tokenAddress },
      now: Number(head.timestamp) * 1000,
    })
    expect(result.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['reserve-signatures'])
    expect(result.checks.find((c) => c.id === 'reserve-signatures')!.detail).toMatch(
      /is neither that address's key's nor accepted by its contract at block/,
    )
  })

  test('at a block before the token existed (a young chain) the reserves held nothing', async () => {
    // What the publisher counts there (a snapshot of a chain younger than the confirmation
    // depth), the verifier reads alike, instead of failing to read the token.
    const { setup } = fixture
    const readers = chainReaders(client)
    const reserves = [setup.depositAddress, setup.hotWalletAddress, setup.payoutVaultAddress]
    expect(
      await readers.readReserves({
        token: setup.tokenAddress,
        addresses: reserves,
        blockNumber: 0n,
      }),
    ).toEqual([0n, 0n, 0n])
    const now = await client.getBlockNumber()
    const held = await readers.readReserves({
      token: setup.tokenAddress,
      addresses: reserves,
      blockNumber: now,
    })
    expect(held.some((b) => b > 0n)).toBe(true)
  })

  test('a contract signature is the vault’s answer at the block: none where it has no code', async () => {
    const { setup } = fixture
    const readers = chainReaders(client)
    const latest = await por.latest()
    const statement = latest.reserves.find((r) => r.address === setup.payoutVaultAddress)!
    const ask = (address: Hex, blockNumber: bigint) =>
      readers.readContractSignature({
        address,
        hash: hashMessage(statement.message),
        signature: statement.signature as Hex,
        blockNumber,
      })
    expect(await ask(setup.payoutVaultAddress, BigInt(latest.blockNumber))).toBe(true)
    // Before the vault was deployed, and at a wallet's address, nothing answers: a no, not an error.
    expect(await ask(setup.payoutVaultAddress, 0n)).toBe(false)
    expect(await ask(setup.hotWalletAddress, BigInt(latest.blockNumber))).toBe(false)
    // A chain out of reach is an error, never a no.
    const gone = createPublicClient({ transport: http('http://127.0.0.1:9', { retryCount: 0 }) })
    await expect(
      chainReaders(gone as PublicClient).readContractSignature({
        address: setup.payoutVaultAddress,
        hash: hashMessage(statement.message),
        signature: statement.signature as Hex,
        blockNumber: 1n,
      }),
    ).rejects.toThrow()
  })
})
