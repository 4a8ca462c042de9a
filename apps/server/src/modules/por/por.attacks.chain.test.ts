// An insolvent operator's moves against the proof of liabilities, on a real chain (Anvil): its
// own registry, its own token, an 18-decimal token, an old snapshot served after a newer one.
// The verifier, pinned to the official registry and token, refuses each with its reason.
import {
  buildSnapshotTree,
  chainReaders,
  createProofFile,
  reserveOwnershipMessage,
  verifyProof,
  type ProofFile,
} from '@hope/por-verify'
import {
  createWalletClient,
  encodeAbiParameters,
  http,
  keccak256,
  parseUnits,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import registry from '../../chain/contracts/PorRegistry.json' with { type: 'json' }
import token from '../../chain/contracts/TetherLikeToken.json' with { type: 'json' }
import { devAccount, localChain } from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'

/** The operator's own key: it deploys and owns whatever it likes. */
const OPERATOR = 8
const ALICE = devAccount(3).address
const BOB = devAccount(4).address
const RESERVE = devAccount(9)
/** The registries here: no minimum interval, block B at most 600 blocks old, check within 3. */
const RULES = [0n, 600n, 3n]

describe('an insolvent operator against the pinned verifier', () => {
  let fixture: ChainFixture
  let client: PublicClient
  const wallet = () =>
    createWalletClient({
      chain: localChain(fixture.anvil.url),
      transport: http(fixture.anvil.url),
      account: devAccount(OPERATOR),
    })
  const receipt = (hash: Hex) => client.waitForTransactionReceipt({ hash, pollingInterval: 50 })

  const deploy = async (contract: { abi: unknown[]; bytecode: string }, args: unknown[] = []) =>
    (await receipt(
      await wallet().deployContract({
        abi: contract.abi,
        bytecode: contract.bytecode as Hex,
        args,
      }),
    ))!.contractAddress!

  const mint = async (tokenAddress: Address, to: Address, units: bigint) =>
    receipt(
      await wallet().writeContract({
        address: tokenAddress,
        abi: token.abi,
        functionName: 'mint',
        args: [to, units],
      }),
    )

  /**
   * A snapshot of `accounts` published on `registryAddress` with `tokenAddress`, the reserve
   * signing for it; answers the proof file of `who`.
   */
  async function publishTree(opts: {
    registryAddress: Address
    tokenAddress: Address
    id: bigint
    accounts: { address: string; usdt: bigint; hope: bigint }[]
    who: string
  }): Promise<ProofFile> {
    const tree = buildSnapshotTree({
      snapshotId: opts.id,
      secret: new Uint8Array(32).fill(Number(opts.id)),
      accounts: opts.accounts,
    })
    await fixture.mine(1)
    const blockNumber = (await client.getBlockNumber({ cacheTime: 0 })) - 1n
    await receipt(
      await wallet().writeContract({
        address: opts.registryAddress,
        abi: registry.abi,
        functionName: 'publish',
        args: [
          opts.id,
          tree.root,
          tree.totals.usdt,
          tree.totals.hope,
          blockNumber,
          opts.tokenAddress,
          1_000n + opts.id,
          BigInt(tree.leafCount),
          [RESERVE.address],
        ],
      }),
    )
    // Past its check block: settled.
    await fixture.mine(4)
    const message = reserveOwnershipMessage({
      address: RESERVE.address,
      chainId: fixture.anvil.chainId,
      registry: opts.registryAddress,
      token: opts.tokenAddress,
    })
    return createProofFile(
      tree,
      {
        chainId: fixture.anvil.chainId,
        registry: opts.registryAddress,
        token: opts.tokenAddress,
        blockNumber,
        reserves: [
          { address: RESERVE.address, message, signature: await RESERVE.signMessage({ message }) },
        ],
      },
      opts.who,
    )!
  }

  const failing = async (
    proof: ProofFile,
    pinned: { registry: string; token: string },
    expected: { usdt: bigint; hope: bigint },
  ) => {
    const { checks } = await verifyProof(proof, chainReaders(client), {
      pinned,
      expected: { address: proof.address, ...expected },
    })
    return checks.filter((c) => !c.ok).map((c) => `${c.id}: ${c.detail}`)
  }

  let officialRegistry: Address
  let officialToken: Address
  const alice = { address: ALICE, usdt: 19_500_000n, hope: 0n }

  beforeAll(async () => {
    fixture = await startChainFixture()
    client = fixture.client
    // The official deployment (as the README names it): a registry and a 6-decimal USDT.
    officialRegistry = await deploy(registry, RULES)
    officialToken = await deploy(token, ['Tether USD', 'USDT', 6])
    await mint(officialToken, RESERVE.address, parseUnits('19.5', 6))
  })
  afterAll(async () => {
    await fixture?.stop()
  })

  test('the honest snapshot verifies', async () => {
    const proof = await publishTree({
      registryAddress: officialRegistry,
      tokenAddress: officialToken,
      id: 1n,
      accounts: [alice],
      who: ALICE,
    })
    const pinned = { registry: officialRegistry, token: officialToken }
    expect(await failing(proof, pinned, { usdt: 19_500_000n, hope: 0n })).toEqual([])
  })

  test('its own registry, with a tree that leaves a user out: refused', async () => {
    const own = await deploy(registry, RULES)
    const proof = await publishTree({
      registryAddress: own,
      tokenAddress: officialToken,
      id: 1n,
      accounts: [alice],
      who: ALICE,
    })
    const pinned = { registry: officialRegistry, token: officialToken }
    expect(await failing(proof, pinned, { usdt: 19_500_000n, hope: 0n })).toContainEqual(
      expect.stringMatching(/^pinned: the file names registry 0x[0-9a-fA-F]+, not the official/),
    )
  })

  test('its own "USDT" holding the reserves: refused', async () => {
    const fakeUsdt = await deploy(token, ['Tether USD', 'USDT', 6])
    await mint(fakeUsdt, RESERVE.address, parseUnits('1000000', 6))
    const own = await deploy(registry, RULES)
    const proof = await publishTree({
      registryAddress: own,
      tokenAddress: fakeUsdt,
      id: 1n,
      accounts: [alice],
      who: ALICE,
    })
    const pinned = { registry: own, token: officialToken }
    expect(await failing(proof, pinned, { usdt: 19_500_000n, hope: 0n })).toContainEqual(
      expect.stringMatching(/^pinned: the file names token 0x[0-9a-fA-F]+, not the official/),
    )
  })

  test('an 18-decimal token: its decimals from the registry, no 10^12 overstatement', async () => {
    const usdt18 = await deploy(token, ['Tether USD', 'USDT', 18])
    const reg18 = await deploy(registry, RULES)
    // 19.5 USDT owed; the reserve holds 19,500,000 base units: 0.0000000000195 of a token.
    await mint(usdt18, RESERVE.address, 19_500_000n)
    const proof = await publishTree({
      registryAddress: reg18,
      tokenAddress: usdt18,
      id: 1n,
      accounts: [alice],
      who: ALICE,
    })
    const pinned = { registry: reg18, token: usdt18 }
    expect(await failing(proof, pinned, { usdt: 19_500_000n, hope: 0n })).toEqual([
      expect.stringMatching(
        /^reserves: 0\.0000000000195 of the token \(18 decimals\) .* < liabilities 19\.5 USDT/,
      ),
      expect.stringMatching(/^recheck: 0\.0000000000195 of the token/),
    ])
    // Topped up to 19.5 whole tokens, the next snapshot is covered exactly.
    await mint(usdt18, RESERVE.address, parseUnits('19.5', 18) - 19_500_000n)
    const next = await publishTree({
      registryAddress: reg18,
      tokenAddress: usdt18,
      id: 2n,
      accounts: [alice],
      who: ALICE,
    })
    expect(await failing(next, pinned, { usdt: 19_500_000n, hope: 0n })).toEqual([])
  })

  test('an old snapshot served after a newer one: refused as not the latest', async () => {
    const pinned = { registry: officialRegistry, token: officialToken }
    const first = await publishTree({
      registryAddress: officialRegistry,
      tokenAddress: officialToken,
      id: 2n,
      accounts: [alice, { address: BOB, usdt: 1_000_000n, hope: 0n }],
      who: ALICE,
    })
    await publishTree({
      registryAddress: officialRegistry,
      tokenAddress: officialToken,
      id: 3n,
      accounts: [{ address: BOB, usdt: 1_000_000n, hope: 0n }],
      who: BOB,
    })
    // Served for a while after the newer one settled; not after that.
    await fixture.rpc('evm_increaseTime', [1_000])
    await fixture.mine(1)
    expect(await failing(first, pinned, { usdt: 19_500_000n, hope: 0n })).toContainEqual(
      'latest: snapshot 2 is not the latest, 3 is',
    )
  })

  test('a one-block loan: reserves lent in for block B and out before the check block are refused', async () => {
    const lent = await deploy(token, ['Tether USD', 'USDT', 6])
    const reg = await deploy(registry, [0n, 600n, 50n])
    const pinned = { registry: reg, token: lent }
    // 200,000 USDT lent to the reserve at block B, returned right after the publication.
    await mint(lent, RESERVE.address, parseUnits('200000', 6))
    const tree = buildSnapshotTree({
      snapshotId: 1n,
      secret: new Uint8Array(32).fill(5),
      accounts: [alice],
    })
    await fixture.mine(1)
    const blockNumber = (await client.getBlockNumber({ cacheTime: 0 })) - 1n
    await receipt(
      await wallet().writeContract({
        address: reg,
        abi: registry.abi,
        functionName: 'publish',
        args: [
          1n,
          tree.root,
          tree.totals.usdt,
          0n,
          blockNumber,
          lent,
          7n,
          BigInt(tree.leafCount),
          [RESERVE.address],
        ],
      }),
    )
    const payBack = createWalletClient({
      chain: localChain(fixture.anvil.url),
      transport: http(fixture.anvil.url),
      account: RESERVE,
    })
    await receipt(
      await payBack.writeContract({
        address: lent,
        abi: token.abi,
        functionName: 'transfer',
        args: [devAccount(OPERATOR).address, parseUnits('200000', 6)],
      }),
    )
    await fixture.mine(51)
    const message = reserveOwnershipMessage({
      address: RESERVE.address,
      chainId: fixture.anvil.chainId,
      registry: reg,
      token: lent,
    })
    const proof = createProofFile(
      tree,
      {
        chainId: fixture.anvil.chainId,
        registry: reg,
        token: lent,
        blockNumber,
        reserves: [
          { address: RESERVE.address, message, signature: await RESERVE.signMessage({ message }) },
        ],
      },
      ALICE,
    )!
    expect(await failing(proof, pinned, { usdt: 19_500_000n, hope: 0n })).toEqual([
      expect.stringMatching(
        /^recheck: 0 of the token \(6 decimals\) held at block \d+ .* < liabilities/,
      ),
    ])
  })

  test('on demand: a registry without the 20-hour interval is refused where it counts', async () => {
    const proof = await publishTree({
      registryAddress: officialRegistry,
      tokenAddress: officialToken,
      id: 4n,
      accounts: [alice],
      who: ALICE,
    })
    const { checks } = await verifyProof(proof, chainReaders(client), {
      pinned: { registry: officialRegistry, token: officialToken },
      expected: { address: ALICE, usdt: 19_500_000n, hope: 0n },
      minIntervalHours: 20,
    })
    expect(checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['rules'])
  })

  test('the registry’s storage rewritten, or its code replaced, on the operator’s own chain: refused', async () => {
    const proof = await publishTree({
      registryAddress: officialRegistry,
      tokenAddress: officialToken,
      id: 5n,
      accounts: [alice],
      who: ALICE,
    })
    const pinned = { registry: officialRegistry, token: officialToken }
    expect(await failing(proof, pinned, { usdt: 19_500_000n, hope: 0n })).toEqual([])
    // The snapshot's total USDT (slot 1 of its struct in the mapping at slot 2) halved in place.
    const base = BigInt(
      keccak256(encodeAbiParameters([{ type: 'uint64' }, { type: 'uint256' }], [5n, 2n])),
    )
    const slot = toHex(base + 1n, { size: 32 })
    await fixture.rpc('anvil_setStorageAt', [
      officialRegistry,
      slot,
      toHex(9_750_000n, { size: 32 }),
    ])
    expect(await failing(proof, pinned, { usdt: 19_500_000n, hope: 0n })).toContainEqual(
      expect.stringMatching(/^rules: .*storage differs from what its publication said/),
    )
    // Code that answers whatever the operator likes.
    await fixture.rpc('anvil_setCode', [
      officialRegistry,
      (token as { deployedBytecode: Hex }).deployedBytecode,
    ])
    expect(await failing(proof, pinned, { usdt: 19_500_000n, hope: 0n })).toContainEqual(
      expect.stringMatching(/^code: the registry's code hashes to/),
    )
  })
})
