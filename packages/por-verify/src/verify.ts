// Verifies one proof file, check by check. Pure given its readers: the CLI passes readers over
// an RPC endpoint, the app passes the same readers over the user's wallet chain, tests pass fakes.
import { formatUnits, hashMessage, recoverMessageAddress } from 'viem'
import {
  encodeAddress,
  encodeHash,
  encodeSalt,
  nobleHashing,
  SUM_BOUND,
  toHex,
  type Hashing,
} from './encoding.ts'
import { reserveOwnershipMessage, type ProofFile } from './proof.ts'
import { hashLeaf, hashNode, type TreeNode } from './tree.ts'

type Hex = `0x${string}`

export const USDT_DECIMALS = 6
export const HOPE_DECIMALS = 18

/** What the registry holds for a snapshot id (`snapshots(id)` and `reservesOf(id)`). */
export interface AnchoredSnapshot {
  root: Hex
  totalUsdt: bigint
  totalHope: bigint
  blockNumber: bigint
  /** Seconds since 1970 of the block that published it. */
  publishedAt: bigint
  /** The token the reserves are counted in, and its decimals as the registry read them. */
  token: Hex
  tokenDecimals: number
  /** The reserve addresses, ascending. */
  reserves: Hex[]
}

export interface ChainReaders {
  /** The chain the readers talk to; checked against the proof's when given. */
  readChainId?: () => Promise<number>
  /** The anchored snapshot, or undefined when none is published under that id. */
  readRegistry: (input: {
    registry: Hex
    snapshotId: bigint
  }) => Promise<AnchoredSnapshot | undefined>
  /** The registry's newest snapshot id (0 before the first). */
  readLatestId: (input: { registry: Hex }) => Promise<bigint>
  /** Each address's token balance at the block, in the order given. */
  readReserves: (input: { token: Hex; addresses: Hex[]; blockNumber: bigint }) => Promise<bigint[]>
  /**
   * Whether the contract at `address` accepted `signature` of `hash` at the block (EIP-1271:
   * `isValidSignature` answered its magic value): how a reserve that is a contract, with no key
   * of its own, vouches for its statement. False when it refuses, reverts or has no code;
   * throws only when the chain cannot be read. Without it such a reserve is not shown to be the
   * platform's.
   */
  readContractSignature?: (input: {
    address: Hex
    hash: Hex
    signature: Hex
    blockNumber: bigint
  }) => Promise<boolean>
}

export type CheckId =
  | 'pinned'
  | 'latest'
  | 'leaves'
  | 'sums'
  | 'root'
  | 'totals'
  | 'balance'
  | 'chain'
  | 'anchor'
  | 'reserve-signatures'
  | 'reserves'

export interface Check {
  id: CheckId
  ok: boolean
  /** One line in English, for a report or a terminal. */
  detail: string
  /**
   * The figures of a check that passed, as plain decimal strings and numbers, for an app to
   * say the line in its user's language and number format (amounts in USDT or HOPE, not units).
   */
  facts?: Record<string, string>
}

type Outcome = [ok: boolean, detail: string, facts?: Record<string, string>]

export interface VerifyResult {
  ok: boolean
  checks: Check[]
}

export interface VerifyOptions {
  /**
   * What the user knows (their address, their balance in the app); compared when given.
   * `hopeAtLeast`: HOPE the proof must hold at least (the app's HOPE accounts, to which the
   * proof adds staked and pledged HOPE).
   */
  expected?: { address?: string; usdt?: bigint; hope?: bigint; hopeAtLeast?: bigint }
  /**
   * The official registry and token (from the README, the app's settings), never the file's:
   * a file naming others is refused. Without them the file's are read, as a last resort.
   */
  pinned?: { registry: string; token: string }
  /** A latest snapshot published longer ago than this is refused (36). */
  maxAgeHours?: number
  /** Now, in ms since 1970 (Date.now()). */
  now?: number
  hashing?: Hashing
}

export const DEFAULT_MAX_AGE_HOURS = 36

/** Short labels for a report. */
export const CHECK_LABELS: Record<CheckId, string> = {
  pinned: 'official registry',
  latest: 'latest and fresh',
  leaves: 'leaves',
  sums: 'sums on the path',
  root: 'root',
  totals: 'totals',
  balance: 'balance',
  chain: 'chain',
  anchor: 'anchored on chain',
  'reserve-signatures': 'reserve ownership',
  reserves: 'reserves cover USDT',
}

/**
 * Runs every check on a parsed proof file and answers each with ok and a one-line detail.
 *
 * @example
 * const { ok, checks } = await verifyProof(proof, chainReaders(client))
 * for (const c of checks) console.log(c.ok ? '✓' : '✗', c.id, c.detail)
 */
export async function verifyProof(
  proof: ProofFile,
  readers: ChainReaders,
  options: VerifyOptions = {},
): Promise<VerifyResult> {
  const hashing = options.hashing ?? nobleHashing
  const checks: Check[] = []
  const add = (id: CheckId, ok: boolean, detail: string, facts?: Record<string, string>) =>
    checks.push(facts && ok ? { id, ok, detail, facts } : { id, ok, detail })

  const snapshotId = BigInt(proof.snapshotId)
  const blockNumber = BigInt(proof.blockNumber)
  const totals = { usdt: BigInt(proof.totals.usdt), hope: BigInt(proof.totals.hope) }

  // The registry and token are the official ones, never whatever the file names.
  const registry = (options.pinned?.registry ?? proof.registry).toLowerCase() as Hex
  const pinnedProblems = options.pinned
    ? [
        proof.registry.toLowerCase() !== registry &&
          `the file names registry ${proof.registry}, not the official ${options.pinned.registry}`,
        proof.token.toLowerCase() !== options.pinned.token.toLowerCase() &&
          `the file names token ${proof.token}, not the official ${options.pinned.token}`,
      ].filter((p): p is string => !!p)
    : []
  add(
    'pinned',
    !!options.pinned && pinnedProblems.length === 0,
    !options.pinned
      ? 'not checked: no official registry and token given, the file’s were used'
      : pinnedProblems.join('; ') ||
          `registry ${short(registry)} and token ${short(options.pinned.token)}, as given`,
    { registry, token: options.pinned?.token ?? '' },
  )

  // Only the newest snapshot, and only a fresh one.
  const latest = await attempt(async () => {
    const id = await readers.readLatestId({ registry })
    const snapshot = id > 0n ? await readers.readRegistry({ registry, snapshotId: id }) : undefined
    return { id, snapshot }
  })
  add('latest', ...checkLatest(snapshotId, latest, options))

  // Each leaf, from the proof's own address: a leaf made for someone else cannot be reused.
  const leaves: TreeNode[] = []
  const leafProblem = checkPartsDistinct(proof) ?? computeLeaves(hashing, proof, snapshotId, leaves)
  add(
    'leaves',
    !leafProblem,
    leafProblem ?? `${leaves.length} leaf(s) recomputed from the address, part, salt and amounts`,
    { count: String(leaves.length) },
  )

  // Each path, level by level: parent = left + right, nothing at or past 2^127.
  const roots: (TreeNode | undefined)[] = []
  let sumsProblem: string | undefined
  proof.parts.forEach((part, i) => {
    const leaf = leaves[i]
    if (!leaf) return roots.push(undefined)
    const walked = walkPath(hashing, leaf, part)
    if ('problem' in walked) {
      sumsProblem ??= `part ${part.part}: ${walked.problem}`
      roots.push(undefined)
    } else roots.push(walked.root)
  })
  add(
    'sums',
    !leafProblem && !sumsProblem,
    sumsProblem ??
      (leafProblem
        ? 'not checked: the leaves could not be recomputed'
        : `every parent is the sum of its children, all below 2^127, on ${roots.length} path(s)`),
    { paths: String(roots.length) },
  )

  const computed = roots.filter((r): r is TreeNode => r !== undefined)
  const complete = computed.length === proof.parts.length
  const rootsMatch = complete && computed.every((r) => toHex(r.hash) === proof.root.toLowerCase())
  add(
    'root',
    rootsMatch,
    rootsMatch
      ? `every part leads to the root ${short(proof.root)}`
      : complete
        ? `a part leads to ${short(toHex(computed.find((r) => toHex(r.hash) !== proof.root.toLowerCase())!.hash))}, not to the root ${short(proof.root)}`
        : 'not checked: a path could not be walked',
    { root: proof.root },
  )
  const totalsMatch =
    rootsMatch && computed.every((r) => r.usdt === totals.usdt && r.hope === totals.hope)
  add(
    'totals',
    totalsMatch,
    totalsMatch
      ? `liabilities ${usdt(totals.usdt)} and ${hope(totals.hope)}, as the root's sums`
      : rootsMatch
        ? `the root's sums are ${usdt(computed[0]!.usdt)} and ${hope(computed[0]!.hope)}, the file says ${usdt(totals.usdt)} and ${hope(totals.hope)}`
        : 'not checked: the root does not match',
    {
      usdt: formatUnits(totals.usdt, USDT_DECIMALS),
      hope: formatUnits(totals.hope, HOPE_DECIMALS),
    },
  )

  add('balance', ...checkBalance(proof, options.expected))

  if (readers.readChainId) {
    const chainId = await attempt(readers.readChainId)
    add(
      'chain',
      chainId.ok && chainId.value === proof.chainId,
      chainId.ok
        ? `the RPC serves chain ${chainId.value}${chainId.value === proof.chainId ? '' : `, the proof is for chain ${proof.chainId}`}`
        : `could not read the chain id: ${chainId.error}`,
      { chainId: String(proof.chainId) },
    )
  }

  const anchored = await attempt(() => readers.readRegistry({ registry, snapshotId }))
  add('anchor', ...checkAnchor(proof, registry, anchored, totals, blockNumber, options.pinned))
  const onChain = anchored.ok ? anchored.value : undefined

  add('reserve-signatures', ...(await checkReserveSignatures(proof, registry, onChain, readers)))

  // The reserve set, the token and its decimals, and the block all come from the registry.
  if (!onChain) add('reserves', false, 'not checked: the snapshot could not be read on chain')
  else {
    const balances = await attempt(() =>
      readers.readReserves({
        token: onChain.token,
        addresses: onChain.reserves,
        blockNumber: onChain.blockNumber,
      }),
    )
    if (!balances.ok) add('reserves', false, `could not read the reserves: ${balances.error}`)
    else {
      const held = balances.value.reduce((s, b) => s + b, 0n)
      // Liabilities are at USDT's 6 decimals; the token's balances at its own.
      const scale = 10n ** BigInt(Math.abs(onChain.tokenDecimals - USDT_DECIMALS))
      const [heldScaled, owedScaled] =
        onChain.tokenDecimals >= USDT_DECIMALS
          ? [held, onChain.totalUsdt * scale]
          : [held * scale, onChain.totalUsdt]
      const covered = balances.value.length === onChain.reserves.length && heldScaled >= owedScaled
      const ratio =
        owedScaled === 0n ? '' : ` (${formatUnits((heldScaled * 10_000n) / owedScaled, 2)}%)`
      add(
        'reserves',
        covered,
        `${formatUnits(held, onChain.tokenDecimals)} of the token (${onChain.tokenDecimals} decimals) held at block ${onChain.blockNumber} by ${onChain.reserves.length} address(es) ${covered ? '≥' : '<'} liabilities ${usdt(onChain.totalUsdt)}${ratio}`,
        {
          held: formatUnits(held, onChain.tokenDecimals),
          owed: formatUnits(onChain.totalUsdt, USDT_DECIMALS),
          ratio: owedScaled === 0n ? '' : formatUnits((heldScaled * 10_000n) / owedScaled, 2),
          addresses: String(onChain.reserves.length),
          block: String(onChain.blockNumber),
        },
      )
    }
  }

  return { ok: checks.every((c) => c.ok), checks }
}

function checkLatest(
  snapshotId: bigint,
  latest: Attempt<{ id: bigint; snapshot: AnchoredSnapshot | undefined }>,
  options: VerifyOptions,
): Outcome {
  if (!latest.ok) return [false, `could not read the registry: ${latest.error}`]
  const { id, snapshot } = latest.value
  if (id === 0n || !snapshot) return [false, 'the registry holds no snapshot']
  if (snapshotId !== id) return [false, `snapshot ${snapshotId} is not the latest, ${id} is`]
  const maxAgeHours = options.maxAgeHours ?? DEFAULT_MAX_AGE_HOURS
  const ageS = BigInt(Math.floor((options.now ?? Date.now()) / 1000)) - snapshot.publishedAt
  const ageHours = Number(ageS) / 3600
  if (ageS > BigInt(Math.round(maxAgeHours * 3600)))
    return [
      false,
      `snapshot ${id} was published ${ageHours.toFixed(1)} hours ago, more than ${maxAgeHours}: the operator has not published since`,
    ]
  return [
    true,
    `snapshot ${id} is the registry's newest, published ${ageHours.toFixed(1)} hours ago`,
    { snapshot: String(id), hours: ageHours.toFixed(1) },
  ]
}

function checkPartsDistinct(proof: ProofFile): string | undefined {
  const numbers = new Set(proof.parts.map((p) => p.part))
  const positions = new Set(proof.parts.map((p) => p.position))
  if (numbers.size !== proof.parts.length) return 'two parts share a part number'
  if (positions.size !== proof.parts.length) return 'two parts share a position'
  return undefined
}

function computeLeaves(
  hashing: Hashing,
  proof: ProofFile,
  snapshotId: bigint,
  out: TreeNode[],
): string | undefined {
  const address = encodeAddress(proof.address)
  for (const part of proof.parts) {
    const usdt = BigInt(part.usdt)
    const hope = BigInt(part.hope)
    if (usdt >= SUM_BOUND || hope >= SUM_BOUND) return `part ${part.part}: an amount ≥ 2^127`
    const hash = hashLeaf(hashing, {
      snapshotId,
      address,
      part: part.part,
      salt: encodeSalt(part.salt),
      usdt,
      hope,
    })
    out.push({ hash, usdt, hope })
  }
  return undefined
}

function walkPath(
  hashing: Hashing,
  leaf: TreeNode,
  part: ProofFile['parts'][number],
): { root: TreeNode } | { problem: string } {
  let node = leaf
  for (const [level, sibling] of part.path.entries()) {
    const s = {
      hash: encodeHash(sibling.hash),
      usdt: BigInt(sibling.usdt),
      hope: BigInt(sibling.hope),
    }
    if (s.usdt < 0n || s.hope < 0n || s.usdt >= SUM_BOUND || s.hope >= SUM_BOUND)
      return { problem: `level ${level}: a sibling sum outside [0, 2^127)` }
    if (node.usdt + s.usdt >= SUM_BOUND || node.hope + s.hope >= SUM_BOUND)
      return { problem: `level ${level + 1}: a parent sum ≥ 2^127` }
    const isRight = Math.floor(part.position / 2 ** level) % 2 === 1
    node = isRight ? hashNode(hashing, s, node) : hashNode(hashing, node, s)
  }
  return { root: node }
}

function checkBalance(proof: ProofFile, expected: VerifyOptions['expected']): Outcome {
  const sum = {
    usdt: proof.parts.reduce((s, p) => s + BigInt(p.usdt), 0n),
    hope: proof.parts.reduce((s, p) => s + BigInt(p.hope), 0n),
  }
  const stated = { usdt: BigInt(proof.balance.usdt), hope: BigInt(proof.balance.hope) }
  if (sum.usdt !== stated.usdt || sum.hope !== stated.hope)
    return [
      false,
      `the parts add up to ${usdt(sum.usdt)} and ${hope(sum.hope)}, the file states ${usdt(stated.usdt)} and ${hope(stated.hope)}`,
    ]
  const mismatch = [
    expected?.address !== undefined &&
    expected.address.toLowerCase() !== proof.address.toLowerCase()
      ? `the proof is for ${proof.address}, not for ${expected.address}`
      : undefined,
    expected?.usdt !== undefined && expected.usdt !== sum.usdt
      ? `${usdt(sum.usdt)} committed, ${usdt(expected.usdt)} expected`
      : undefined,
    expected?.hope !== undefined && expected.hope !== sum.hope
      ? `${hope(sum.hope)} committed, ${hope(expected.hope)} expected`
      : undefined,
    expected?.hopeAtLeast !== undefined && sum.hope < expected.hopeAtLeast
      ? `${hope(sum.hope)} committed, at least ${hope(expected.hopeAtLeast)} expected`
      : undefined,
  ].filter(Boolean)
  if (mismatch.length) return [false, mismatch.join('; ')]
  return [
    true,
    `${usdt(sum.usdt)} and ${hope(sum.hope)} in ${proof.parts.length} part(s) for ${proof.address}${expected ? ', as expected' : ''}`,
    {
      usdt: formatUnits(sum.usdt, USDT_DECIMALS),
      hope: formatUnits(sum.hope, HOPE_DECIMALS),
      parts: String(proof.parts.length),
    },
  ]
}

function checkAnchor(
  proof: ProofFile,
  registry: Hex,
  anchored: Attempt<AnchoredSnapshot | undefined>,
  totals: { usdt: bigint; hope: bigint },
  blockNumber: bigint,
  pinned: VerifyOptions['pinned'],
): Outcome {
  if (!anchored.ok) return [false, `could not read the registry: ${anchored.error}`]
  const a = anchored.value
  const at = `registry ${short(registry)}, snapshot ${proof.snapshotId}`
  if (!a || /^0x0*$/.test(a.root)) return [false, `${at}: nothing published`]
  const token = (pinned?.token ?? proof.token).toLowerCase()
  const differences = [
    a.root.toLowerCase() !== proof.root.toLowerCase() && `root ${short(a.root)} on chain`,
    a.totalUsdt !== totals.usdt && `total ${usdt(a.totalUsdt)} on chain`,
    a.totalHope !== totals.hope && `total ${hope(a.totalHope)} on chain`,
    a.blockNumber !== blockNumber && `block ${a.blockNumber} on chain`,
    a.token.toLowerCase() !== token && `reserves counted in token ${a.token} on chain`,
  ].filter(Boolean)
  if (differences.length) return [false, `${at}: ${differences.join(', ')}`]
  return [
    true,
    `${at}: root, totals and block ${blockNumber} match`,
    { block: String(blockNumber) },
  ]
}

async function checkReserveSignatures(
  proof: ProofFile,
  registry: Hex,
  onChain: AnchoredSnapshot | undefined,
  readers: ChainReaders,
): Promise<Outcome> {
  const seen = new Set<string>()
  for (const reserve of proof.reserves) {
    const address = reserve.address.toLowerCase()
    if (seen.has(address)) return [false, `${reserve.address} is listed twice`]
    seen.add(address)
  }
  if (!onChain) return [false, 'not checked: the snapshot could not be read on chain']
  // Every reserve the registry counts must be shown to be the platform's, and only those.
  const counted = onChain.reserves.map((a) => a.toLowerCase())
  if (new Set(counted).size !== counted.length)
    return [false, 'the registry lists a reserve address twice']
  const unsigned = counted.filter((a) => !seen.has(a))
  if (unsigned.length) return [false, `no ownership statement for reserve ${unsigned.join(', ')}`]
  const extra = [...seen].filter((a) => !counted.includes(a))
  if (extra.length) return [false, `${extra.join(', ')} signed but not counted by the registry`]
  let contracts = 0
  for (const reserve of proof.reserves) {
    const address = reserve.address.toLowerCase()
    const message = reserveOwnershipMessage({
      address,
      chainId: proof.chainId,
      registry,
      token: onChain.token,
    })
    if (reserve.message !== message)
      return [false, `${reserve.address} signed another message than the reserve statement`]
    const signer = await attempt(() =>
      recoverMessageAddress({ message, signature: reserve.signature }),
    )
    if (signer.ok && signer.value.toLowerCase() === address) continue
    // A contract (the payout vault) has no key: it vouches itself, by EIP-1271, for what its
    // owner signed. Asked at block B, where its balance is counted; one call per such reserve,
    // as many as the registry counts at most.
    if (!readers.readContractSignature)
      return [
        false,
        `the signature for ${reserve.address} is not that address's key's, and no reader of contract signatures (EIP-1271) was given`,
      ]
    const vouched = await attempt(() =>
      readers.readContractSignature!({
        address: reserve.address,
        hash: hashMessage(message),
        signature: reserve.signature,
        blockNumber: onChain.blockNumber,
      }),
    )
    if (!vouched.ok)
      return [false, `could not ask ${reserve.address} about its signature: ${vouched.error}`]
    if (!vouched.value)
      return [
        false,
        `the signature for ${reserve.address} is neither that address's key's nor accepted by its contract at block ${onChain.blockNumber}`,
      ]
    contracts += 1
  }
  return [
    true,
    contracts === 0
      ? `${proof.reserves.length} reserve address(es), each signed by its key`
      : `${proof.reserves.length} reserve address(es), each signed by its key or, for ${contracts} contract(s), by its owner (EIP-1271)`,
    { count: String(proof.reserves.length) },
  ]
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: string }

async function attempt<T>(run: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await run() }
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error)
    return { ok: false, error: message }
  }
}

const usdt = (v: bigint) => `${formatUnits(v, USDT_DECIMALS)} USDT`
const hope = (v: bigint) => `${formatUnits(v, HOPE_DECIMALS)} HOPE`
const short = (hex: string) => `${hex.slice(0, 10)}…${hex.slice(-6)}`
