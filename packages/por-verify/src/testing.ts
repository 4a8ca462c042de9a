// Fixtures for this package's tests: a chain of fakes (registry, reserves) around a built tree,
// reserve keys that sign the ownership statement, and random account sets.
import fc from 'fast-check'
import { recoverAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { SnapshotTree } from './build.ts'
import {
  createProofFile,
  reserveOwnershipMessage,
  type ProofFile,
  type ReserveSignature,
} from './proof.ts'
import {
  checkBlockFor,
  REGISTRY_CODE_HASH,
  type AnchoredSnapshot,
  type ChainReaders,
  type PublishedEvent,
  type RegistryRules,
} from './verify.ts'

type Hex = `0x${string}`

export const CHAIN_ID = 31337
export const REGISTRY: Hex = '0x00000000000000000000000000000000000000a1'
export const TOKEN: Hex = '0x00000000000000000000000000000000000000a2'
export const BLOCK = 120n
export const SECRET = new Uint8Array(32).fill(42)

/** Two reserve keys (the deposit and the hot wallet), fixed so that tests are repeatable. */
export const RESERVE_KEYS: Hex[] = [
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
]

export async function signReserves(keys: Hex[] = RESERVE_KEYS): Promise<ReserveSignature[]> {
  return Promise.all(
    keys.map(async (key) => {
      const account = privateKeyToAccount(key)
      const message = reserveOwnershipMessage({
        address: account.address,
        chainId: CHAIN_ID,
        registry: REGISTRY,
        token: TOKEN,
      })
      return {
        address: account.address,
        message,
        signature: await account.signMessage({ message }),
      }
    }),
  )
}

/**
 * A reserve that is a contract (the payout vault): it holds no key and answers EIP-1271 for the
 * signatures of its owner, `VAULT_OWNER_KEY`.
 */
export const VAULT: Hex = '0x00000000000000000000000000000000000000a5'
export const VAULT_OWNER_KEY: Hex =
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6'

/** The vault's ownership statement, signed (EIP-191) by `key`: its owner's unless told. */
export async function signVault(key: Hex = VAULT_OWNER_KEY): Promise<ReserveSignature> {
  const message = reserveOwnershipMessage({
    address: VAULT,
    chainId: CHAIN_ID,
    registry: REGISTRY,
    token: TOKEN,
  })
  return {
    address: VAULT,
    message,
    signature: await privateKeyToAccount(key).signMessage({ message }),
  }
}

export function proofOf(
  tree: SnapshotTree,
  address: string,
  reserves: ReserveSignature[],
): ProofFile {
  const proof = createProofFile(
    tree,
    { chainId: CHAIN_ID, registry: REGISTRY, token: TOKEN, blockNumber: BLOCK, reserves },
    address,
  )
  if (!proof) throw new Error(`${address} is not in the tree`)
  return proof
}

/** The reserve addresses of `RESERVE_KEYS`, ascending as the registry keeps them. */
export const RESERVE_ADDRESSES: Hex[] = RESERVE_KEYS.map(
  (k) => privateKeyToAccount(k).address,
).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))

/** "Now" for tests: the fake chain's head is at it, four seconds a block. */
export const NOW = Date.now()
const NOW_S = BigInt(Math.floor(NOW / 1000))
export const HEAD = 1030n
const blockTime = (n: bigint) => NOW_S - (HEAD - n) * 4n
/** The block that published the snapshot, an hour before now. */
export const PUBLISHED_BLOCK = 130n
export const PUBLISHED_AT = blockTime(PUBLISHED_BLOCK)
/** A block's hash in the fake chain: its number, so that checkBlockFor is easy to follow. */
export const blockHash = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`
export const RULES: RegistryRules = { minInterval: 72_000n, maxBlockAge: 50n, checkWindow: 10n }
/** The check block of the snapshot: 131 + 130 mod 10 = 131. */
export const CHECK_BLOCK = checkBlockFor(
  PUBLISHED_BLOCK,
  blockHash(PUBLISHED_BLOCK),
  RULES.checkWindow,
)
export const LEDGER_CUT = 5_000n
/** The official registry and token, as a user gives them to the verifier. */
export const PINNED = { registry: REGISTRY, token: TOKEN }

/**
 * A chain on which `tree` is anchored as built (as the registry's latest snapshot, unless
 * `latestId` says otherwise) and the reserves hold `reserves` in total at block B and at the
 * check block. `VAULT` is a contract that accepts its owner's signatures (`contracts` gives
 * others); any other address has no code. A snapshot before the tree's was published a day
 * before it; a newer one 20 blocks after it each.
 */
export function fakeChain(
  tree: SnapshotTree,
  options: {
    reserves?: bigint
    /** The reserves at the check block, when they differ from those at B. */
    reservesAtCheck?: bigint
    anchored?: Partial<AnchoredSnapshot>
    /** What the publication's event said, when it differs from the registry's storage. */
    event?: Partial<PublishedEvent>
    chainId?: number
    latestId?: bigint
    rules?: Partial<RegistryRules>
    head?: bigint
    codeHash?: Hex
    /** Contract reserves, each with the owner whose signatures it accepts (EIP-1271). */
    contracts?: Record<Hex, Hex>
  } = {},
): Required<ChainReaders> {
  const rules = { ...RULES, ...options.rules }
  const head = options.head ?? HEAD
  const own = tree.snapshotId
  const anchored: AnchoredSnapshot = {
    root: tree.root,
    totalUsdt: tree.totals.usdt,
    totalHope: tree.totals.hope,
    blockNumber: BLOCK,
    publishedAt: PUBLISHED_AT,
    token: TOKEN,
    tokenDecimals: 6,
    publishedBlock: PUBLISHED_BLOCK,
    ledgerCut: LEDGER_CUT,
    leafCount: BigInt(Math.max(tree.leafCount, 1)),
    reserves: RESERVE_ADDRESSES,
    ...options.anchored,
  }
  const snapshotAt = (id: bigint): AnchoredSnapshot | undefined => {
    if (id === own) return anchored
    if (id <= 0n || id > latestId) return undefined
    const steps = id - own
    // Another published snapshot (the newer one of a replay, or the one before): other values.
    const publishedBlock = PUBLISHED_BLOCK + steps * 20n
    return {
      ...anchored,
      root: `0x${'ab'.repeat(31)}${(Number(id) % 256).toString(16).padStart(2, '0')}`,
      blockNumber: BLOCK + steps * 20n,
      publishedBlock,
      publishedAt: steps > 0n ? blockTime(publishedBlock) : PUBLISHED_AT + steps * 86_400n,
      ledgerCut: LEDGER_CUT + steps * 100n,
    }
  }
  const total = options.reserves ?? tree.totals.usdt
  const latestId = options.latestId ?? tree.snapshotId
  return {
    readChainId: async () => options.chainId ?? CHAIN_ID,
    readRegistry: async ({ registry, snapshotId }) =>
      registry.toLowerCase() === REGISTRY ? snapshotAt(snapshotId) : undefined,
    readLatestId: async ({ registry }) => (registry.toLowerCase() === REGISTRY ? latestId : 0n),
    readRules: async () => rules,
    readCodeHash: async ({ address }) =>
      address.toLowerCase() === REGISTRY ? (options.codeHash ?? REGISTRY_CODE_HASH) : undefined,
    readHead: async () => ({ number: head, hash: blockHash(head), timestamp: blockTime(head) }),
    readBlock: async ({ blockNumber }) =>
      blockNumber > head
        ? undefined
        : { number: blockNumber, hash: blockHash(blockNumber), timestamp: blockTime(blockNumber) },
    readPublication: async ({ registry, snapshotId, blockNumber }) => {
      const s = registry.toLowerCase() === REGISTRY ? snapshotAt(snapshotId) : undefined
      if (!s || s.publishedBlock !== blockNumber) return undefined
      const { publishedAt: _at, publishedBlock: _block, ...event } = s
      return snapshotId === own ? { ...event, ...options.event } : event
    },
    // The first reserve holds it all: what counts is the sum.
    readReserves: async ({ token, addresses, blockNumber }) => {
      const checkBlock = checkBlockFor(
        anchored.publishedBlock,
        blockHash(anchored.publishedBlock),
        rules.checkWindow,
      )
      const held =
        token.toLowerCase() !== TOKEN
          ? 0n
          : blockNumber === BLOCK
            ? total
            : blockNumber === checkBlock
              ? (options.reservesAtCheck ?? total)
              : 0n
      return addresses.map((_, i) => (i === 0 ? held : 0n))
    },
    readContractSignature: async ({ address, hash, signature }) => {
      const contracts = options.contracts ?? {
        [VAULT]: privateKeyToAccount(VAULT_OWNER_KEY).address,
      }
      const owner = Object.entries(contracts).find(
        ([contract]) => contract.toLowerCase() === address.toLowerCase(),
      )?.[1]
      if (!owner) return false
      const signer = await recoverAddress({ hash, signature }).catch(() => null)
      return signer?.toLowerCase() === owner.toLowerCase()
    },
  }
}

export const addressArb = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((b) => `0x${Buffer.from(b).toString('hex')}`)

/** 1 to `max` accounts with distinct addresses, zero balances included. */
export const accountsArb = (max = 12) =>
  fc.uniqueArray(
    fc.record({
      address: addressArb,
      usdt: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 10n ** 15n })),
      hope: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 10n ** 27n })),
    }),
    { minLength: 1, maxLength: max, selector: (a) => a.address },
  )

export const failed = (checks: { id: string; ok: boolean }[]) =>
  checks.filter((c) => !c.ok).map((c) => c.id)
