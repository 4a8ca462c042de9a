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
import type { AnchoredSnapshot, ChainReaders } from './verify.ts'

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

/** "Now" for tests, and the fake chain's publication an hour before it. */
export const NOW = Date.now()
export const PUBLISHED_AT = BigInt(Math.floor(NOW / 1000) - 3_600)
/** The official registry and token, as a user gives them to the verifier. */
export const PINNED = { registry: REGISTRY, token: TOKEN }

/**
 * A chain on which `tree` is anchored as built (as the registry's latest snapshot, unless
 * `latestId` says otherwise) and the reserves hold `reserves` in total. `VAULT` is a contract
 * that accepts its owner's signatures (`contracts` gives others); any other address has no code.
 */
export function fakeChain(
  tree: SnapshotTree,
  options: {
    reserves?: bigint
    anchored?: Partial<AnchoredSnapshot>
    chainId?: number
    latestId?: bigint
    /** Contract reserves, each with the owner whose signatures it accepts (EIP-1271). */
    contracts?: Record<Hex, Hex>
  } = {},
): Required<ChainReaders> {
  const anchored: AnchoredSnapshot = {
    root: tree.root,
    totalUsdt: tree.totals.usdt,
    totalHope: tree.totals.hope,
    blockNumber: BLOCK,
    publishedAt: PUBLISHED_AT,
    token: TOKEN,
    tokenDecimals: 6,
    reserves: RESERVE_ADDRESSES,
    ...options.anchored,
  }
  const total = options.reserves ?? tree.totals.usdt
  const latestId = options.latestId ?? tree.snapshotId
  return {
    readChainId: async () => options.chainId ?? CHAIN_ID,
    readRegistry: async ({ registry, snapshotId }) => {
      if (registry.toLowerCase() !== REGISTRY) return undefined
      if (snapshotId === tree.snapshotId) return anchored
      // Another published snapshot (the newer one of a replay): a later block, other values.
      if (snapshotId > 0n && snapshotId <= latestId)
        return { ...anchored, root: `0x${'ab'.repeat(32)}`, blockNumber: BLOCK + snapshotId }
      return undefined
    },
    readLatestId: async ({ registry }) => (registry.toLowerCase() === REGISTRY ? latestId : 0n),
    // The first reserve holds it all: what counts is the sum.
    readReserves: async ({ token, addresses, blockNumber }) => {
      if (token.toLowerCase() !== TOKEN || blockNumber !== BLOCK) return addresses.map(() => 0n)
      return addresses.map((_, i) => (i === 0 ? total : 0n))
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
