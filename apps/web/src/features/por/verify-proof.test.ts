import { buildSnapshotTree, createProofFile, reserveOwnershipMessage } from '@hope/por-verify'
import type { ChainReaders } from '@hope/por-verify/verify'
import { fakeChain } from '@hope/por-verify/testing'
import { REGISTRY_CODE_HASH } from '@hope/por-verify'
import { beforeAll, describe, expect, test } from 'vitest'
import { ContractFunctionZeroDataError } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { DepositAddress } from '@hope/api'
import type { Eip1193Provider } from '../../lib/wallet/eip1193.ts'
import { verdictOf } from './proof-check.ts'
import { chainAccessFor, checkProofFile, type ProofCheck } from './verify-proof.ts'

type Hex = `0x${string}`
const CHAIN_ID = 31337
const REGISTRY: Hex = '0x00000000000000000000000000000000000000a1'
const TOKEN: Hex = '0x00000000000000000000000000000000000000a2'
const ALICE = '0x00000000000000000000000000000000000000a3'
const BOB = '0x00000000000000000000000000000000000000a4'
const reserve = privateKeyToAccount(
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
)
const tree = buildSnapshotTree({
  snapshotId: 9n,
  secret: new Uint8Array(32).fill(7),
  accounts: [
    { address: ALICE, usdt: 12_500_000n, hope: 3n * 10n ** 18n },
    { address: BOB, usdt: 7_000_000n, hope: 0n },
  ],
})
let proof: unknown

beforeAll(async () => {
  const message = reserveOwnershipMessage({
    address: reserve.address,
    chainId: CHAIN_ID,
    registry: REGISTRY,
    token: TOKEN,
  })
  const reserves = [
    { address: reserve.address, message, signature: await reserve.signMessage({ message }) },
  ]
  const file = createProofFile(
    tree,
    { chainId: CHAIN_ID, registry: REGISTRY, token: TOKEN, blockNumber: 120n, reserves },
    ALICE,
  )
  proof = JSON.parse(JSON.stringify(file))
})

/** The chain as the registry and the token answer: anchored as built, reserves as given. */
function chain(
  opts: { root?: Hex; reserves?: bigint; down?: boolean; latestId?: bigint } = {},
): ChainReaders {
  const down = () => Promise.reject(new Error('fetch failed'))
  if (opts.down)
    return Object.fromEntries(
      Object.keys(fakeChain(tree)).map((name) => [name, down]),
    ) as unknown as ChainReaders
  return fakeChain(tree, {
    anchored: { ...(opts.root ? { root: opts.root } : {}), reserves: [reserve.address] },
    reserves: opts.reserves ?? 20_000_000n,
    ...(opts.latestId ? { latestId: opts.latestId } : {}),
  })
}

/** A device's storage for the pins, fresh for each check unless given. */
const memoryStorage = () => {
  const stored = new Map<string, string>()
  return {
    stored,
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
    removeItem: (key: string) => void stored.delete(key),
  }
}

/** The server's settings as `userAccount/getAddress` gives them: the official registry and token. */
const official = {
  chainId: CHAIN_ID,
  tokenAddress: TOKEN,
  porRegistryAddress: REGISTRY,
  chain: null,
} as unknown as DepositAddress

const check = (
  readers: ChainReaders,
  address = ALICE,
  deposit: DepositAddress = official,
  storage: ReturnType<typeof memoryStorage> | null = null,
): Promise<ProofCheck> =>
  checkProofFile(proof, {
    address,
    deposit,
    access: { via: 'rpc', url: 'http://127.0.0.1:8545' },
    readersFor: () => readers,
    storage,
  })

describe('checking a proof in the app', () => {
  test('every check holds for the user’s own proof on a chain that anchors it', async () => {
    const result = await check(chain())
    expect(result.kind).toBe('checked')
    if (result.kind !== 'checked') return
    expect(result.result.checks.filter((c) => !c.ok)).toEqual([])
    expect(result.result.checks).toHaveLength(14)
    expect(verdictOf(result)).toEqual({ ok: true, conclusive: true })
  })

  test('another root on chain, short reserves or someone else’s file fail for certain', async () => {
    for (const [readers, address, failing] of [
      [chain({ root: `0x${'11'.repeat(32)}` }), ALICE, 'anchor'],
      [chain({ reserves: 1n }), ALICE, 'reserves,recheck'],
      [chain(), BOB, 'balance'],
      [chain({ latestId: 12n }), ALICE, 'latest'],
    ] as const) {
      const result = await check(readers, address)
      if (result.kind !== 'checked') throw new Error('not checked')
      expect(result.result.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(failing.split(','))
      expect(verdictOf(result)).toEqual({ ok: false, conclusive: true })
    }
  })

  // The ways an insolvent operator timed the proof, each a failure for certain in the app.
  test.each([
    [
      'on-demand snapshots: published sooner after the previous one than allowed',
      { rules: { minInterval: 90_000n } },
      'rules',
    ],
    ['a one-block loan: the reserves gone at the check block', { reservesAtCheck: 0n }, 'recheck'],
    [
      'a publication time in the future',
      { anchored: { publishedAt: BigInt(Math.floor(Date.now() / 1000)) + 864_000n } },
      'latest',
    ],
    ['storage rewritten after the publication', { event: { totalUsdt: 1n } }, 'rules'],
    ['the registry’s code replaced', { codeHash: `0x${'77'.repeat(32)}` as Hex }, 'code'],
  ] as const)('%s: refused', async (_, over, failing) => {
    const readers = fakeChain(tree, {
      anchored: { reserves: [reserve.address] },
      reserves: 20_000_000n,
      ...(over as Parameters<typeof fakeChain>[1]),
    })
    const result = await check(readers)
    if (result.kind !== 'checked') throw new Error('not checked')
    expect(result.result.checks.filter((c) => !c.ok).map((c) => c.id)).toContain(failing)
    expect(verdictOf(result)).toEqual({ ok: false, conclusive: true })
  })

  test('the registry and token come from the app’s settings: a file naming others fails', async () => {
    const elsewhere = {
      ...official,
      porRegistryAddress: `0x${'e1'.repeat(20)}`,
    } as DepositAddress
    const result = await check(chain(), ALICE, elsewhere)
    if (result.kind !== 'checked') throw new Error('not checked')
    expect(result.result.checks.find((c) => c.id === 'pinned')).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/the file names registry 0x0+a1, not the official 0xe1e1/),
    })
    expect(verdictOf(result)).toEqual({ ok: false, conclusive: true })
  })

  test('the proof must prove what the app showed at the snapshot: USDT equal, HOPE at least', async () => {
    const asked: [number, string][] = []
    const withStatement = (usdt: string, hopeAccounts: string, ledgerPosition = '5000') =>
      checkProofFile(proof, {
        address: ALICE,
        deposit: official,
        fetchStatement: async (snapshotId, cut) => {
          asked.push([snapshotId, cut])
          return { snapshotId: 9, ledgerPosition, usdt, hopeAccounts }
        },
        access: { via: 'rpc', url: 'http://127.0.0.1:8545' },
        readersFor: () => chain(),
        storage: null,
      })
    const failedIds = async (p: Promise<ProofCheck>) => {
      const r = await p
      if (r.kind !== 'checked') throw new Error('not checked')
      return r.result.checks.filter((c) => !c.ok).map((c) => c.id)
    }
    expect(await failedIds(withStatement('12.5', '3'))).toEqual([])
    expect(await failedIds(withStatement('12.5', '2.5'))).toEqual([])
    expect(await failedIds(withStatement('12.500001', '3'))).toEqual(['balance'])
    expect(await failedIds(withStatement('12.5', '3.000000000000000001'))).toEqual(['balance'])
    // Asked at the cut the registry anchored (5000 on this chain), never the server's own.
    expect(asked.every(([id, cut]) => id === 9 && cut === '5000')).toBe(true)
  })

  test('the ledger cut is the chain’s: a statement at another cut, or none, fails', async () => {
    const withAnswer = (answer: { ledgerPosition: string } | null) =>
      checkProofFile(proof, {
        address: ALICE,
        deposit: official,
        fetchStatement: async () =>
          answer && { snapshotId: 9, usdt: '1', hopeAccounts: '0', ...answer },
        access: { via: 'rpc', url: 'http://127.0.0.1:8545' },
        readersFor: () => chain(),
        storage: null,
      })
    // The cut nulled in the database: the server has no statement to give.
    const none = await withAnswer(null)
    if (none.kind !== 'checked') throw new Error('not checked')
    expect(none.result.checks.find((c) => c.id === 'balance')).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/no statement of what it showed at ledger position 5000/),
    })
    expect(verdictOf(none)).toEqual({ ok: false, conclusive: true })
    // An understated balance at another cut passes no more.
    const elsewhere = await withAnswer({ ledgerPosition: '4000' })
    if (elsewhere.kind !== 'checked') throw new Error('not checked')
    expect(elsewhere.result.ok).toBe(false)
  })

  test('the pins are the device’s, not the server’s: a registry swapped later fails loudly', async () => {
    const storage = memoryStorage()
    const first = await check(chain(), ALICE, official, storage)
    if (first.kind !== 'checked') throw new Error('not checked')
    expect(first.result.ok).toBe(true)
    expect(JSON.parse(storage.stored.get('porPins:31337')!)).toMatchObject({
      registry: REGISTRY,
      token: TOKEN,
      codeHash: REGISTRY_CODE_HASH,
    })
    // An admin points the settings at another registry (and a file naming it): the device's
    // pin fails it even though the verifier, pinned to the server's word, would pass.
    const swapped = { ...official, porRegistryAddress: `0x${'e1'.repeat(20)}` } as DepositAddress
    const second = await check(chain(), ALICE, swapped, storage)
    if (second.kind !== 'checked') throw new Error('not checked')
    expect(second.pinsChanged).toEqual(['registry'])
    expect(second.result.ok).toBe(false)
    // A registry at the pinned address whose code changed.
    const recoded = await check(
      { ...chain(), readCodeHash: async () => `0x${'66'.repeat(32)}` as Hex },
      ALICE,
      official,
      storage,
    )
    if (recoded.kind !== 'checked') throw new Error('not checked')
    expect(recoded.result.ok).toBe(false)
    // A registry swapped for a contract that is none: its reverts are an answer, not silence.
    const notARegistry = () =>
      Promise.reject(new ContractFunctionZeroDataError({ functionName: 'latestId' }))
    const reverted = await check(
      {
        ...chain(),
        readLatestId: notARegistry,
        readRules: notARegistry,
        readRegistry: notARegistry,
      },
      ALICE,
      swapped,
      storage,
    )
    if (reverted.kind !== 'checked') throw new Error('not checked')
    expect(reverted.unreachable).toBe(false)
    expect(verdictOf(reverted)).toEqual({ ok: false, conclusive: true })
    // An unreachable chain neither pins nor says anything about the pins.
    const fresh = memoryStorage()
    await check(chain({ down: true }), ALICE, official, fresh)
    expect(fresh.stored.size).toBe(0)
  })

  test('a chain out of reach fails the chain checks without concluding anything', async () => {
    const result = await check(chain({ down: true }))
    if (result.kind !== 'checked') throw new Error('not checked')
    expect(result.unreachable).toBe(true)
    expect(verdictOf(result)).toEqual({ ok: false, conclusive: false })
  })

  test('a payout vault among the reserves is asked on chain for its owner’s signature', async () => {
    // The vault holds no key: its statement is signed by its owner, and it answers EIP-1271.
    const VAULT: Hex = '0x00000000000000000000000000000000000000a5'
    const owner = privateKeyToAccount(
      '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
    )
    const message = reserveOwnershipMessage({
      address: VAULT,
      chainId: CHAIN_ID,
      registry: REGISTRY,
      token: TOKEN,
    })
    const signed = (proof as { reserves: unknown[] }).reserves
    const withVault = async (signer: typeof owner) => ({
      ...(proof as object),
      reserves: [
        ...signed,
        { address: VAULT, message, signature: await signer.signMessage({ message }) },
      ],
    })
    const vaultChain = (answer: () => Promise<boolean>): ChainReaders => ({
      ...fakeChain(tree, {
        anchored: { reserves: [VAULT, reserve.address] },
        reserves: 20_000_000n,
      }),
      readContractSignature: answer,
    })
    const checked = async (file: unknown, readers: ChainReaders) => {
      const result = await checkProofFile(file, {
        address: ALICE,
        deposit: official,
        access: { via: 'rpc', url: 'http://127.0.0.1:8545' },
        readersFor: () => readers,
        storage: null,
      })
      if (result.kind !== 'checked') throw new Error('not checked')
      return result
    }
    const vouched = await checked(
      await withVault(owner),
      vaultChain(async () => true),
    )
    expect(verdictOf(vouched)).toEqual({ ok: true, conclusive: true })
    // The vault says no: a failure for certain.
    const refused = await checked(
      await withVault(reserve),
      vaultChain(async () => false),
    )
    expect(refused.result.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual([
      'reserve-signatures',
    ])
    expect(verdictOf(refused)).toEqual({ ok: false, conclusive: true })
    // The vault out of reach: nothing concluded.
    const down = await checked(
      await withVault(owner),
      vaultChain(() => Promise.reject(new Error('fetch failed'))),
    )
    expect(verdictOf(down)).toEqual({ ok: false, conclusive: false })
  })

  test('a malformed file is a failure', async () => {
    const result = await checkProofFile({ version: 1 }, { access: null })
    expect(result.kind).toBe('malformed')
    expect(verdictOf(result)).toEqual({ ok: false, conclusive: true })
  })

  test('reads the chain through the wallet on it, else the public RPC URL, else viem’s list', async () => {
    const deposit = {
      chainId: CHAIN_ID,
      chain: { rpcUrls: ['https://rpc.hope.example'], blockExplorerUrls: [] },
    } as unknown as DepositAddress
    const wallet = (chainId: string): Eip1193Provider => ({
      request: async ({ method }) => (method === 'eth_chainId' ? chainId : null),
    })
    const onChain = wallet('0x7a69')
    expect(await chainAccessFor(CHAIN_ID, deposit, onChain)).toEqual({
      via: 'wallet',
      provider: onChain,
    })
    expect(await chainAccessFor(CHAIN_ID, deposit, wallet('0x1'))).toEqual({
      via: 'rpc',
      url: 'https://rpc.hope.example',
    })
    expect(await chainAccessFor(CHAIN_ID, null, wallet('0x1'))).toBeNull()
    expect(await chainAccessFor(56, null, wallet('0x1'))).toMatchObject({ via: 'rpc' })
  })

  test('never names an RPC the page may not reach: plain http only on the loopback', async () => {
    const described = (url: string) =>
      ({
        chainId: CHAIN_ID,
        chain: { rpcUrls: [url], blockExplorerUrls: [] },
      }) as unknown as DepositAddress
    const elsewhere = { request: async () => '0x1' } as Eip1193Provider
    expect(await chainAccessFor(CHAIN_ID, described('http://127.0.0.1:8545'), elsewhere)).toEqual({
      via: 'rpc',
      url: 'http://127.0.0.1:8545',
    })
    expect(await chainAccessFor(CHAIN_ID, described('http://10.0.0.5:8545'), elsewhere)).toBeNull()
    expect(await chainAccessFor(CHAIN_ID, described('ws://127.0.0.1:8545'), elsewhere)).toBeNull()
  })
})
