// The app's side of the proof of liabilities: the same verifier as the command line
// (`@hope/por-verify/verify`), over a chain the app reaches without HOPE's API. Loaded only by
// the verify screen and by the daily check, never by the first screen (viem comes with it).
import { pageMayReadRpc, type DepositAddress, type PorStatement } from '@hope/api'
import {
  chainReaders,
  parseProofFile,
  verifyProof,
  type ChainReaders,
  type ProofFile,
  type VerifyResult,
} from '@hope/por-verify/verify'
import { createPublicClient, custom, http, parseUnits, type PublicClient } from 'viem'
import { injectedProvider, readChainId, type Eip1193Provider } from '../../lib/wallet/eip1193.ts'

/** How the verifier reaches the proof's chain. */
export type ChainAccess = { via: 'rpc'; url: string } | { via: 'wallet'; provider: Eip1193Provider }

/**
 * Where to read the proof's chain: the user's own wallet when it is on that chain (the app
 * reads the chain through the wallet, and the page's policy lets it), else the public RPC URL
 * the app gives wallets for the configured chain (`userAccount/getAddress`'s `chain`, from
 * settings; https, or the local chain's loopback, by the same policy), else the chain's usual
 * public RPC (viem's list).
 * HOPE's API serves the proof file only: the root, the totals and the reserves always come
 * from the chain.
 */
export async function chainAccessFor(
  chainId: number,
  deposit: DepositAddress | null | undefined,
  wallet: Eip1193Provider | null = injectedProvider(),
): Promise<ChainAccess | null> {
  if (wallet && (await readChainId(wallet)) === `0x${chainId.toString(16)}`)
    return { via: 'wallet', provider: wallet }
  // Only a URL the page's policy lets it reach: another would fail in the browser's console
  // and read nothing (a plain-http RPC elsewhere than on this machine's loopback).
  const described = deposit?.chainId === chainId ? deposit.chain?.rpcUrls[0] : undefined
  if (described && pageMayReadRpc(described)) return { via: 'rpc', url: described }
  const { addChainParameter } = await import('../../lib/wallet/known-chains.ts')
  const known = addChainParameter(chainId)?.rpcUrls.find(pageMayReadRpc)
  return known ? { via: 'rpc', url: known } : null
}

/** The explorer page of an address on the proof's chain, or null when none is known. */
export async function explorerAddressLink(
  chainId: number,
  deposit: DepositAddress | null | undefined,
  address: string,
): Promise<string | null> {
  let base = deposit?.chainId === chainId ? deposit.chain?.blockExplorerUrls[0] : undefined
  if (!base) {
    const { addChainParameter } = await import('../../lib/wallet/known-chains.ts')
    base = addChainParameter(chainId)?.blockExplorerUrls?.[0]
  }
  return base ? `${base.replace(/\/+$/, '')}/address/${address}` : null
}

export type ProofCheck =
  | { kind: 'malformed'; error: string }
  | {
      kind: 'checked'
      proof: ProofFile
      result: VerifyResult
      access: ChainAccess | null
      /** Block B's time as the chain tells it; null when it could not be read. */
      blockTime: string | null
      /** A chain read failed: the failed checks say the chain was out of reach, nothing more. */
      unreachable: boolean
    }

function clientFor(access: ChainAccess): PublicClient {
  return createPublicClient({
    transport:
      access.via === 'rpc'
        ? http(access.url, { retryCount: 1, timeout: 20_000 })
        : custom(access.provider, { retryCount: 1 }),
  })
}

/** Readers that note any failure to read, so that "unreachable" is never told as "false". */
function watchedReaders(readers: ChainReaders, failed: () => void): ChainReaders {
  const watch =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await read(...args)
      } catch (error) {
        failed()
        throw error
      }
    }
  return {
    ...(readers.readChainId ? { readChainId: watch(readers.readChainId) } : {}),
    readRegistry: watch(readers.readRegistry),
    readLatestId: watch(readers.readLatestId),
    readReserves: watch(readers.readReserves),
    ...(readers.readContractSignature
      ? { readContractSignature: watch(readers.readContractSignature) }
      : {}),
  }
}

const unreachableReaders = (chainId: number): ChainReaders => {
  const fail = () => Promise.reject(new Error(`no RPC endpoint known for chain ${chainId}`))
  return {
    readChainId: fail,
    readRegistry: fail,
    readLatestId: fail,
    readReserves: fail,
    readContractSignature: fail,
  }
}

/**
 * The balance the app showed at the proof's snapshot, as the verifier compares it: USDT equal,
 * HOPE at least the accounts' (the proof adds staked and pledged HOPE).
 */
function shownAt(
  statement: PorStatement | null | undefined,
  proof: ProofFile,
): { usdt?: bigint; hopeAtLeast?: bigint } {
  if (!statement || String(statement.snapshotId) !== proof.snapshotId) return {}
  return {
    usdt: parseUnits(statement.usdt, 6),
    hopeAtLeast: parseUnits(statement.hopeAccounts, 18),
  }
}

/**
 * Parses a proof file and runs every check of `@hope/por-verify` on it against the chain, as
 * `npx por-verify` does: the leaves and the root from the file, the anchored root and totals
 * from the registry, the reserves at block B. `address` is the signed-in wallet's: a file made
 * for anyone else fails the balance check.
 * @example const check = await checkProofFile(await fetchMyProof(), { address, deposit })
 */
export async function checkProofFile(
  raw: unknown,
  opts: {
    address?: string | null
    deposit?: DepositAddress | null
    /** What the app showed at the snapshot's cut: the proof must prove it. */
    statement?: PorStatement | null
    access?: ChainAccess | null
    readersFor?: (access: ChainAccess) => ChainReaders
  } = {},
): Promise<ProofCheck> {
  const parsed = parseProofFile(raw)
  if (!parsed.ok) return { kind: 'malformed', error: parsed.error }
  const { proof } = parsed
  const access =
    opts.access !== undefined ? opts.access : await chainAccessFor(proof.chainId, opts.deposit)
  const client = access && !opts.readersFor ? clientFor(access) : null
  let unreachable = access === null
  const readers = watchedReaders(
    access === null
      ? unreachableReaders(proof.chainId)
      : opts.readersFor
        ? opts.readersFor(access)
        : chainReaders(client!),
    () => (unreachable = true),
  )
  const [result, blockTime] = await Promise.all([
    verifyProof(proof, readers, {
      expected: {
        ...(opts.address ? { address: opts.address } : {}),
        ...shownAt(opts.statement, proof),
      },
      // The official registry and token from the server's settings, never the file's.
      ...(opts.deposit?.porRegistryAddress
        ? {
            pinned: {
              registry: opts.deposit.porRegistryAddress,
              token: opts.deposit.tokenAddress,
            },
          }
        : {}),
    }),
    client
      ? client
          .getBlock({ blockNumber: BigInt(proof.blockNumber) })
          .then((block) => new Date(Number(block.timestamp) * 1000).toISOString())
          .catch(() => null)
      : Promise.resolve(null),
  ])
  return { kind: 'checked', proof, result, access, blockTime, unreachable }
}
