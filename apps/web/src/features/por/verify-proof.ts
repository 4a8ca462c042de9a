// The app's side of the proof of liabilities: the same verifier as the command line
// (`@hope/por-verify/verify`), over a chain the app reaches without HOPE's API. Loaded only by
// the verify screen and by the daily check, never by the first screen (viem comes with it).
import { pageMayReadRpc, type DepositAddress, type PorStatement } from '@hope/api'
import {
  chainReaders,
  newestSettledSnapshot,
  parseProofFile,
  verifyProof,
  type ChainReaders,
  type ProofFile,
  type VerifyResult,
} from '@hope/por-verify/verify'
import {
  AbiDecodingDataSizeTooSmallError,
  AbiDecodingZeroDataError,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createPublicClient,
  custom,
  formatUnits,
  http,
  parseUnits,
  type PublicClient,
} from 'viem'
import { changedPins, loadPins, savePins, type DevicePins } from './device-pins.ts'
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
      /** What the app showed at the anchored cut, as the server gave it (null: it gave none). */
      statement: PorStatement | null
      /**
       * What this device pinned the first time a check held and the server or chain now names
       * differently: a failure, however the other checks went.
       */
      pinsChanged: string[]
      /** The pins this check compared with (null the first time). */
      pins: DevicePins | null
    }

function clientFor(access: ChainAccess): PublicClient {
  return createPublicClient({
    transport:
      access.via === 'rpc'
        ? http(access.url, { retryCount: 1, timeout: 20_000 })
        : custom(access.provider, { retryCount: 1 }),
  })
}

const answeredByContract = (error: unknown): boolean =>
  error instanceof BaseError &&
  !!error.walk(
    (e) =>
      e instanceof ContractFunctionRevertedError ||
      e instanceof ContractFunctionZeroDataError ||
      e instanceof AbiDecodingZeroDataError ||
      e instanceof AbiDecodingDataSizeTooSmallError,
  )

/** Readers that note any failure to read, so that "unreachable" is never told as "false". */
function watchedReaders(readers: ChainReaders, failed: () => void): ChainReaders {
  const watch =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await read(...args)
      } catch (error) {
        // A contract that reverts or has no code answered: that is the chain's word, not its
        // silence (a registry swapped for something else fails, it is not "unreachable").
        if (!answeredByContract(error)) failed()
        throw error
      }
    }
  return Object.fromEntries(
    Object.entries(readers).map(([name, read]) => [
      name,
      watch(read as (...args: unknown[]) => Promise<unknown>),
    ]),
  ) as unknown as ChainReaders
}

const unreachableReaders = (chainId: number): ChainReaders => {
  const fail = () => Promise.reject(new Error(`no RPC endpoint known for chain ${chainId}`))
  return {
    readChainId: fail,
    readRegistry: fail,
    readLatestId: fail,
    readRules: fail,
    readCodeHash: fail,
    readHead: fail,
    readBlock: fail,
    readPublication: fail,
    readReserves: fail,
    readContractSignature: fail,
  }
}

/**
 * The balance check again, against what the app showed at the cut the registry anchored (the
 * chain's ledger position, not the server's word for it): USDT equal, HOPE at least the
 * accounts' (the proof adds staked and pledged HOPE). No statement at that cut is a failure.
 */
function compareStatement(
  result: VerifyResult,
  proof: ProofFile,
  statement: PorStatement | null,
  ledgerCut: string | undefined,
): void {
  const balance = result.checks.find((c) => c.id === 'balance')
  if (!balance?.ok || ledgerCut === undefined) return
  const problem = !statement
    ? `the platform gave no statement of what it showed at ledger position ${ledgerCut}`
    : statement.ledgerPosition !== ledgerCut || String(statement.snapshotId) !== proof.snapshotId
      ? `the platform's statement is at ledger position ${statement.ledgerPosition}, the registry anchored ${ledgerCut}`
      : parseUnits(statement.usdt, 6) !== BigInt(proof.balance.usdt)
        ? `the app showed ${statement.usdt} USDT at the cut, the proof commits ${formatUnits(BigInt(proof.balance.usdt), 6)}`
        : parseUnits(statement.hopeAccounts, 18) > BigInt(proof.balance.hope)
          ? `the app showed ${statement.hopeAccounts} HOPE at the cut, the proof commits ${formatUnits(BigInt(proof.balance.hope), 18)}`
          : undefined
  if (!problem) return
  Object.assign(balance, { ok: false, detail: problem })
  delete balance.facts
  result.ok = false
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
    /**
     * What the app showed at a snapshot's cut, asked at the cut the registry anchored: the
     * proof must prove it.
     */
    fetchStatement?: (snapshotId: number, ledgerCut: string) => Promise<PorStatement | null>
    access?: ChainAccess | null
    readersFor?: (access: ChainAccess) => ChainReaders
    /** Where the pins are kept: the browser's localStorage unless told. */
    storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null
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
      ...(opts.address ? { expected: { address: opts.address } } : {}),
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
  const facts = (id: string) => result.checks.find((c) => c.id === id && c.ok)?.facts
  const ledgerCut = facts('rules')?.ledgerCut
  let statement: PorStatement | null = null
  if (opts.fetchStatement && ledgerCut !== undefined) {
    try {
      statement = await opts.fetchStatement(Number(proof.snapshotId), ledgerCut)
    } catch {
      unreachable = true
    }
    if (!unreachable) compareStatement(result, proof, statement, ledgerCut)
  }

  // The device's pins: made the first time every check holds, compared ever after.
  const storage = opts.storage === undefined ? safeLocalStorage() : opts.storage
  const pins = storage ? loadPins(storage, proof.chainId) : null
  const seen = {
    registry: (opts.deposit?.porRegistryAddress || proof.registry).toLowerCase(),
    token: (opts.deposit?.tokenAddress || proof.token).toLowerCase(),
    codeHash: facts('code')?.codeHash ?? '',
    vaults: facts('reserve-signatures')?.contracts ?? '',
  }
  let pinsChanged: string[] = []
  if (pins) {
    // The registry and token come from the server, whatever the chain answered; a check that
    // could not read the code or the reserves says nothing new about them.
    pinsChanged = changedPins(pins, {
      ...seen,
      codeHash: seen.codeHash || pins.codeHash,
      vaults: facts('reserve-signatures') ? seen.vaults : pins.vaults,
    })
    if (pinsChanged.length) result.ok = false
  } else if (!pins && storage && result.ok && !unreachable)
    savePins(storage, proof.chainId, { ...seen, pinnedAt: new Date().toISOString() })
  return {
    kind: 'checked',
    proof,
    result,
    access,
    blockTime,
    unreachable,
    statement,
    pinsChanged,
    pins,
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage
  } catch {
    return null
  }
}

/**
 * The chain's newest settled snapshot (its id and anchored ledger position), read without HOPE's
 * API; null when none has settled, undefined when the chain could not be read.
 */
export async function anchoredCut(
  deposit: DepositAddress | null | undefined,
): Promise<{ snapshotId: number; ledgerCut: string } | null | undefined> {
  if (!deposit?.porRegistryAddress || deposit.chainId === undefined) return undefined
  const access = await chainAccessFor(deposit.chainId, deposit)
  if (!access) return undefined
  try {
    const newest = await newestSettledSnapshot(
      chainReaders(clientFor(access)),
      deposit.porRegistryAddress as `0x${string}`,
    )
    return newest && { snapshotId: Number(newest.snapshotId), ledgerCut: String(newest.ledgerCut) }
  } catch {
    return undefined
  }
}
