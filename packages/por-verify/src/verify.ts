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
  /** The block that published it: its hash picks the check block. */
  publishedBlock: bigint
  /** The position in HOPE's ledger the books were read at. */
  ledgerCut: bigint
  /** The tree's number of leaves (padding included). */
  leafCount: bigint
  /** The reserve addresses, ascending. */
  reserves: Hex[]
}

/** The rules the registry enforces at every publication (`rules()`). */
export interface RegistryRules {
  /** Seconds at least between two publications. */
  minInterval: bigint
  /** Blocks at most between block B and the publication. */
  maxBlockAge: bigint
  /** The check block is one of this many blocks after the publication. */
  checkWindow: bigint
}

/** What the `SnapshotPublished` event of a publication said. */
export type PublishedEvent = Omit<AnchoredSnapshot, 'publishedAt' | 'publishedBlock'>

/** A block as the verifier needs it. */
export interface BlockFacts {
  number: bigint
  hash: Hex
  /** Seconds since 1970. */
  timestamp: bigint
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
  /** The registry's rules. */
  readRules: (input: { registry: Hex }) => Promise<RegistryRules>
  /** keccak256 of the runtime code at `address`; undefined where there is none. */
  readCodeHash: (input: { address: Hex }) => Promise<Hex | undefined>
  /** The node's newest block. */
  readHead: () => Promise<BlockFacts>
  /** A block by number; undefined when the node does not have it (yet). */
  readBlock: (input: { blockNumber: bigint }) => Promise<BlockFacts | undefined>
  /** The `SnapshotPublished` event of snapshot `snapshotId` in block `blockNumber`, if any. */
  readPublication: (input: {
    registry: Hex
    snapshotId: bigint
    blockNumber: bigint
  }) => Promise<PublishedEvent | undefined>
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
  | 'code'
  | 'latest'
  | 'rules'
  | 'leaves'
  | 'sums'
  | 'root'
  | 'totals'
  | 'balance'
  | 'chain'
  | 'anchor'
  | 'reserve-signatures'
  | 'reserves'
  | 'recheck'

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
  /**
   * Why the answer is not known yet, when it is not: the proof's snapshot waits for its check
   * block, or the node is behind the blocks to read. The app says "try again later" then.
   */
  waiting?:
    | { reason: 'settling'; checkBlock: bigint; head: bigint }
    | { reason: 'behind'; block: bigint; head: bigint }
  /** A newer snapshot published but not settled yet (shown as "a newer one is pending"). */
  pending?: bigint
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
   * `codeHash`: the registry's runtime code hash; by default the one this package ships.
   */
  pinned?: { registry: string; token: string; codeHash?: string }
  /** A latest snapshot published longer ago than this is refused (36). */
  maxAgeHours?: number
  /**
   * The least time the registry must enforce between two publications, in hours: 20 by
   * default, none on the local development chain (31337).
   */
  minIntervalHours?: number
  /** Now, in ms since 1970 (Date.now()). */
  now?: number
  hashing?: Hashing
}

export const DEFAULT_MAX_AGE_HOURS = 36
/** The least interval between publications a production registry must enforce. */
export const DEFAULT_MIN_INTERVAL_HOURS = 20
/** The development chain (Anvil): its registry publishes minutes apart. */
export const LOCAL_CHAIN_ID = 31337
/** A publication time this far past the chain's head or the user's clock is refused. */
export const FUTURE_SKEW_S = 300
/**
 * Once a newer snapshot's check block has passed, the previous one is still accepted this long:
 * the time the platform takes to serve the newer proofs. No failing window at a publication.
 */
export const SETTLE_GRACE_S = 900
/** Unsettled snapshots looked past at most, newest first, to find the newest settled one. */
const MAX_PENDING = 3

/**
 * The runtime code hash of HOPE's PorRegistry (version 3). Every deployment holds the same code
 * (no immutables), so a registry whose code hashes otherwise is not the published contract.
 */
export const REGISTRY_CODE_HASH: Hex =
  '0x7ab80309e6f245ec2ab97c33c956e767dc6dc7b07835004796f4dd66c37eb6df'

/**
 * The block the reserves are counted at again: one of the `checkWindow` blocks after the
 * publication block, picked by that block's hash (unknown to the publisher when it sends).
 */
export function checkBlockFor(publishedBlock: bigint, publishedHash: Hex, checkWindow: bigint) {
  if (checkWindow <= 0n) throw new RangeError('checkWindow: at least 1')
  return publishedBlock + 1n + (BigInt(publishedHash) % checkWindow)
}

/** Short labels for a report. */
export const CHECK_LABELS: Record<CheckId, string> = {
  pinned: 'official registry',
  code: 'registry code',
  latest: 'latest and fresh',
  rules: 'registry rules',
  leaves: 'leaves',
  sums: 'sums on the path',
  root: 'root',
  totals: 'totals',
  balance: 'balance',
  chain: 'chain',
  anchor: 'anchored on chain',
  'reserve-signatures': 'reserve ownership',
  reserves: 'reserves cover USDT',
  recheck: 'reserves again',
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
  const checks: Check[] = []
  const add = (id: CheckId, ok: boolean, detail: string, facts?: Record<string, string>) =>
    checks.push(facts && ok ? { id, ok, detail, facts } : { id, ok, detail })
  const snapshotId = BigInt(proof.snapshotId)
  const totals = { usdt: BigInt(proof.totals.usdt), hope: BigInt(proof.totals.hope) }

  // The registry and token are the official ones, never whatever the file names; the registry
  // is the published contract: its code, not only its address.
  const registry = (options.pinned?.registry ?? proof.registry).toLowerCase() as Hex
  add('pinned', ...checkPinned(proof, registry, options.pinned))
  add('code', ...(await checkCode(readers, registry, options.pinned?.codeHash)))

  // Only the newest settled snapshot, published by the chain's clock within the maximum age.
  const timeline = await attempt(() => readTimeline(readers, registry))
  const latest = checkLatest(snapshotId, timeline, options, options.now ?? Date.now())
  add('latest', ...latest.outcome)

  // The rules the registry enforced, read back from the chain, and its storage against the
  // event of the publication (storage rewritten on a chain the operator runs shows here).
  add(
    'rules',
    ...(await checkRules(readers, registry, snapshotId, proof.chainId, timeline, options)),
  )

  // The file alone: its leaves, paths, root and totals, then the balance the user knows.
  for (const [id, ...outcome] of checkTree(options.hashing ?? nobleHashing, proof, totals))
    add(id, ...outcome)
  add('balance', ...checkBalance(proof, options.expected))
  if (readers.readChainId) add('chain', ...(await checkChain(readers.readChainId, proof.chainId)))

  const anchored = await attempt(() => readers.readRegistry({ registry, snapshotId }))
  add(
    'anchor',
    ...checkAnchor(proof, registry, anchored, totals, BigInt(proof.blockNumber), options.pinned),
  )
  const onChain = anchored.ok ? anchored.value : undefined
  add('reserve-signatures', ...(await checkReserveSignatures(proof, registry, onChain, readers)))

  // The reserves at block B and again at the check block.
  const coverage = await checkReserveCoverage(readers, registry, snapshotId, onChain, timeline)
  for (const [id, ...outcome] of coverage.outcomes) add(id, ...outcome)

  const result: VerifyResult = { ok: checks.every((c) => c.ok), checks }
  const wait = latest.waiting ?? coverage.behind
  if (wait) result.waiting = wait
  const pending = timeline.ok ? timeline.value.pending : undefined
  if (pending !== undefined) result.pending = pending
  return result
}

function checkPinned(proof: ProofFile, registry: Hex, pinned: VerifyOptions['pinned']): Outcome {
  const problems = pinned
    ? [
        proof.registry.toLowerCase() !== registry &&
          `the file names registry ${proof.registry}, not the official ${pinned.registry}`,
        proof.token.toLowerCase() !== pinned.token.toLowerCase() &&
          `the file names token ${proof.token}, not the official ${pinned.token}`,
      ].filter((p): p is string => !!p)
    : []
  return [
    !!pinned && problems.length === 0,
    !pinned
      ? 'not checked: no official registry and token given, the file’s were used'
      : problems.join('; ') ||
        `registry ${short(registry)} and token ${short(pinned.token)}, as given`,
    { registry, token: pinned?.token ?? '' },
  ]
}

async function checkCode(
  readers: ChainReaders,
  registry: Hex,
  pinnedHash?: string,
): Promise<Outcome> {
  const codeHash = (pinnedHash ?? REGISTRY_CODE_HASH).toLowerCase()
  const code = await attempt(() => readers.readCodeHash({ address: registry }))
  return [
    code.ok && code.value?.toLowerCase() === codeHash,
    !code.ok
      ? `could not read the registry's code: ${code.error}`
      : code.value === undefined
        ? `no contract at ${registry}`
        : code.value.toLowerCase() === codeHash
          ? `the registry runs the published code (${short(codeHash)})`
          : `the registry's code hashes to ${short(code.value)}, not to the published ${short(codeHash)}`,
    { codeHash },
  ]
}

async function checkChain(readChainId: () => Promise<number>, expected: number): Promise<Outcome> {
  const chainId = await attempt(readChainId)
  return [
    chainId.ok && chainId.value === expected,
    chainId.ok
      ? `the RPC serves chain ${chainId.value}${chainId.value === expected ? '' : `, the proof is for chain ${expected}`}`
      : `could not read the chain id: ${chainId.error}`,
    { chainId: String(expected) },
  ]
}

/**
 * The checks on the file alone: each leaf from the proof's own address (a leaf made for
 * someone else cannot be reused), each path level by level (parent = left + right, nothing at
 * or past 2^127), every path to the root, and the root's sums as the totals.
 */
function checkTree(
  hashing: Hashing,
  proof: ProofFile,
  totals: { usdt: bigint; hope: bigint },
): [CheckId, ...Outcome][] {
  const leaves: TreeNode[] = []
  const leafProblem =
    checkPartsDistinct(proof) ?? computeLeaves(hashing, proof, BigInt(proof.snapshotId), leaves)
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
  const computed = roots.filter((r): r is TreeNode => r !== undefined)
  const complete = computed.length === proof.parts.length
  const rootsMatch = complete && computed.every((r) => toHex(r.hash) === proof.root.toLowerCase())
  const totalsMatch =
    rootsMatch && computed.every((r) => r.usdt === totals.usdt && r.hope === totals.hope)
  return [
    [
      'leaves',
      !leafProblem,
      leafProblem ?? `${leaves.length} leaf(s) recomputed from the address, part, salt and amounts`,
      { count: String(leaves.length) },
    ],
    [
      'sums',
      !leafProblem && !sumsProblem,
      sumsProblem ??
        (leafProblem
          ? 'not checked: the leaves could not be recomputed'
          : `every parent is the sum of its children, all below 2^127, on ${roots.length} path(s)`),
      { paths: String(roots.length) },
    ],
    [
      'root',
      rootsMatch,
      rootsMatch
        ? `every part leads to the root ${short(proof.root)}`
        : complete
          ? `a part leads to ${short(toHex(computed.find((r) => toHex(r.hash) !== proof.root.toLowerCase())!.hash))}, not to the root ${short(proof.root)}`
          : 'not checked: a path could not be walked',
      { root: proof.root },
    ],
    [
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
    ],
  ]
}

/**
 * The reserve set, the token and its decimals, and the block all come from the registry; the
 * reserves must cover the liabilities at block B (`reserves`) and again at the check block
 * (`recheck`). A node whose head is before block B is behind, not an answer.
 */
async function checkReserveCoverage(
  readers: ChainReaders,
  registry: Hex,
  snapshotId: bigint,
  onChain: AnchoredSnapshot | undefined,
  timeline: Attempt<Timeline>,
): Promise<{ outcomes: [CheckId, ...Outcome][]; behind?: VerifyResult['waiting'] }> {
  const head = timeline.ok ? timeline.value.head : undefined
  // The proof's snapshot may be older than those the timeline read (just replaced).
  const own = !timeline.ok
    ? undefined
    : (timeline.value.snapshots.get(snapshotId) ??
      (await attempt(() =>
        snapshotFacts(readers, registry, snapshotId, timeline.value.rules, timeline.value.head),
      ).then((r) => (r.ok ? r.value : undefined))))
  const outcomes: [CheckId, ...Outcome][] = []
  let behind: VerifyResult['waiting']
  for (const [id, at] of [
    ['reserves', onChain?.blockNumber],
    ['recheck', own?.checkBlock],
  ] as const) {
    if (!onChain || at === undefined || !head)
      outcomes.push([
        id,
        false,
        'not checked: the snapshot or its check block could not be read on chain',
      ])
    else if (head.number < at) {
      if (id === 'reserves') behind ??= { reason: 'behind', block: at, head: head.number }
      outcomes.push([
        id,
        false,
        id === 'recheck'
          ? `not yet: the reserves are counted again at block ${at}, the chain is at ${head.number}`
          : `the node is behind block ${at} (its newest is ${head.number}): try again or another RPC endpoint`,
      ])
    } else outcomes.push([id, ...(await checkCoverage(readers, onChain, at))])
  }
  return behind ? { outcomes, behind } : { outcomes }
}

async function checkCoverage(
  readers: ChainReaders,
  onChain: AnchoredSnapshot,
  blockNumber: bigint,
): Promise<Outcome> {
  const balances = await attempt(() =>
    readers.readReserves({ token: onChain.token, addresses: onChain.reserves, blockNumber }),
  )
  if (!balances.ok) return [false, `could not read the reserves: ${balances.error}`]
  const held = balances.value.reduce((s, b) => s + b, 0n)
  // Liabilities are at USDT's 6 decimals; the token's balances at its own.
  const scale = 10n ** BigInt(Math.abs(onChain.tokenDecimals - USDT_DECIMALS))
  const [heldScaled, owedScaled] =
    onChain.tokenDecimals >= USDT_DECIMALS
      ? [held, onChain.totalUsdt * scale]
      : [held * scale, onChain.totalUsdt]
  const covered = balances.value.length === onChain.reserves.length && heldScaled >= owedScaled
  const ratio = owedScaled === 0n ? '' : formatUnits((heldScaled * 10_000n) / owedScaled, 2)
  return [
    covered,
    `${formatUnits(held, onChain.tokenDecimals)} of the token (${onChain.tokenDecimals} decimals) held at block ${blockNumber} by ${onChain.reserves.length} address(es) ${covered ? '≥' : '<'} liabilities ${usdt(onChain.totalUsdt)}${ratio ? ` (${ratio}%)` : ''}`,
    {
      held: formatUnits(held, onChain.tokenDecimals),
      owed: formatUnits(onChain.totalUsdt, USDT_DECIMALS),
      ratio,
      addresses: String(onChain.reserves.length),
      block: String(blockNumber),
    },
  ]
}

/**
 * The registry's newest settled snapshot as the chain tells it (its id and the ledger position
 * its books were read at), or null when none has settled: how an app asks what it showed a
 * user at that cut without trusting the platform for the cut.
 */
export async function newestSettledSnapshot(
  readers: ChainReaders,
  registry: Hex,
): Promise<{ snapshotId: bigint; ledgerCut: bigint } | null> {
  const timeline = await readTimeline(readers, registry)
  const newest = timeline.snapshots.get(timeline.newestSettled)
  return newest
    ? { snapshotId: timeline.newestSettled, ledgerCut: newest.anchored.ledgerCut }
    : null
}

/** A snapshot as the timeline knows it: its anchor, its publication block and check block. */
interface SettledFacts {
  anchored: AnchoredSnapshot
  published: BlockFacts
  checkBlock: bigint
  settled: boolean
}

/** The registry's newest snapshots down to the newest settled one, and the chain's head. */
interface Timeline {
  latestId: bigint
  head: BlockFacts
  rules: RegistryRules
  snapshots: Map<bigint, SettledFacts>
  /** The newest snapshot whose check block has passed (0 when none has). */
  newestSettled: bigint
  /** The newest published one when it is not settled yet. */
  pending?: bigint
  /** When the newest settled one's check block was made (seconds since 1970). */
  settledAt?: bigint
}

async function readTimeline(readers: ChainReaders, registry: Hex): Promise<Timeline> {
  const [latestId, rules, head] = await Promise.all([
    readers.readLatestId({ registry }),
    readers.readRules({ registry }),
    readers.readHead(),
  ])
  const snapshots = new Map<bigint, SettledFacts>()
  let newestSettled = 0n
  for (let id = latestId; id > 0n && latestId - id < BigInt(MAX_PENDING); id -= 1n) {
    const facts = await snapshotFacts(readers, registry, id, rules, head)
    if (!facts) break
    snapshots.set(id, facts)
    if (facts.settled) {
      newestSettled = id
      break
    }
  }
  const timeline: Timeline = { latestId, head, rules, snapshots, newestSettled }
  if (latestId > newestSettled && latestId > 0n) timeline.pending = latestId
  const settled = snapshots.get(newestSettled)
  if (settled) {
    const checkBlock = await readers.readBlock({ blockNumber: settled.checkBlock })
    if (checkBlock) timeline.settledAt = checkBlock.timestamp
  }
  return timeline
}

async function snapshotFacts(
  readers: ChainReaders,
  registry: Hex,
  id: bigint,
  rules: RegistryRules,
  head: BlockFacts,
): Promise<SettledFacts | undefined> {
  const anchored = await readers.readRegistry({ registry, snapshotId: id })
  if (!anchored) return undefined
  const published = await readers.readBlock({ blockNumber: anchored.publishedBlock })
  if (!published) throw new NodeBehind(anchored.publishedBlock, head.number)
  const checkBlock = checkBlockFor(anchored.publishedBlock, published.hash, rules.checkWindow)
  return { anchored, published, checkBlock, settled: head.number >= checkBlock }
}

/** The node answered from a head before a block the registry names: not a reorganisation. */
class NodeBehind extends Error {
  readonly block: bigint
  readonly head: bigint
  constructor(block: bigint, head: bigint) {
    super(
      `the node does not have block ${block} (its newest is ${head}): try again or another RPC endpoint`,
    )
    this.block = block
    this.head = head
  }
}

function checkLatest(
  snapshotId: bigint,
  timeline: Attempt<Timeline>,
  options: VerifyOptions,
  nowMs: number,
): { outcome: Outcome; waiting?: VerifyResult['waiting'] } {
  if (!timeline.ok)
    return {
      outcome: [false, `could not read the registry: ${timeline.error}`],
      ...(timeline.cause instanceof NodeBehind
        ? {
            waiting: {
              reason: 'behind' as const,
              block: timeline.cause.block,
              head: timeline.cause.head,
            },
          }
        : {}),
    }
  const t = timeline.value
  if (t.latestId === 0n) return { outcome: [false, 'the registry holds no snapshot'] }
  const own = t.snapshots.get(snapshotId)
  // The proof's own snapshot still waits for its check block: not an answer yet.
  if (own && !own.settled)
    return {
      outcome: [
        false,
        `snapshot ${snapshotId} is not settled yet: its reserves are counted again at block ${own.checkBlock}, the chain is at ${t.head.number}`,
      ],
      waiting: { reason: 'settling', checkBlock: own.checkBlock, head: t.head.number },
    }
  if (t.newestSettled === 0n)
    return { outcome: [false, `no snapshot among the newest ${MAX_PENDING} has settled`] }
  const newest = t.snapshots.get(t.newestSettled)!
  const pending = t.pending !== undefined && t.pending !== snapshotId ? t.pending : undefined
  const pendingFacts = { pending: pending === undefined ? '' : String(pending) }
  if (snapshotId !== t.newestSettled) {
    // Just after a newer snapshot settled, the platform may still serve the one before it for a
    // while (SETTLE_GRACE_S by the chain's clock): that is no failure.
    const settledFor = t.settledAt === undefined ? undefined : t.head.timestamp - t.settledAt
    if (
      snapshotId + 1n !== t.newestSettled ||
      settledFor === undefined ||
      settledFor > BigInt(SETTLE_GRACE_S)
    )
      return {
        outcome: [false, `snapshot ${snapshotId} is not the latest, ${t.newestSettled} is`],
      }
    return {
      outcome: [
        true,
        `snapshot ${snapshotId} was the newest until ${settledFor} s ago; snapshot ${t.newestSettled} has settled since and is being served`,
        { snapshot: String(snapshotId), hours: '0.0', pending: String(t.newestSettled) },
      ],
    }
  }
  // The age by the later of the user's clock and the chain's: a slow clock cannot make an old
  // snapshot look fresh, and a publication time past both is a forgery.
  const nowS = max(BigInt(Math.floor(nowMs / 1000)), t.head.timestamp)
  const maxAgeHours = options.maxAgeHours ?? DEFAULT_MAX_AGE_HOURS
  const publishedAt = newest.anchored.publishedAt
  if (publishedAt > nowS + BigInt(FUTURE_SKEW_S))
    return {
      outcome: [
        false,
        `snapshot ${snapshotId} claims a publication ${(Number(publishedAt - nowS) / 3600).toFixed(1)} hours in the future`,
      ],
    }
  const ageS = nowS > publishedAt ? nowS - publishedAt : 0n
  const ageHours = Number(ageS) / 3600
  if (ageS > BigInt(Math.round(maxAgeHours * 3600)))
    return {
      outcome: [
        false,
        `snapshot ${snapshotId} was published ${ageHours.toFixed(1)} hours ago, more than ${maxAgeHours}: the operator has not published since`,
      ],
    }
  return {
    outcome: [
      true,
      `snapshot ${snapshotId} is the registry's newest settled one, published ${ageHours.toFixed(1)} hours ago by the chain's clock${pending === undefined ? '' : `; snapshot ${pending} is published and waits for its check block`}`,
      { snapshot: String(snapshotId), hours: ageHours.toFixed(1), ...pendingFacts },
    ],
  }
}

async function checkRules(
  readers: ChainReaders,
  registry: Hex,
  snapshotId: bigint,
  chainId: number,
  timeline: Attempt<Timeline>,
  options: VerifyOptions,
): Promise<Outcome> {
  if (!timeline.ok) return [false, `could not read the registry: ${timeline.error}`]
  const { rules } = timeline.value
  const requiredHours =
    options.minIntervalHours ?? (chainId === LOCAL_CHAIN_ID ? 0 : DEFAULT_MIN_INTERVAL_HOURS)
  if (rules.minInterval < BigInt(Math.round(requiredHours * 3600)))
    return [
      false,
      `the registry lets snapshots follow each other ${rules.minInterval} s apart, less than ${requiredHours} hours: a snapshot could be made for whoever is about to check`,
    ]
  const read = await attempt(async () => {
    const own = timeline.value.snapshots.get(snapshotId)?.anchored
    const snapshot = own ?? (await readers.readRegistry({ registry, snapshotId }))
    const previous =
      snapshotId > 1n
        ? await readers.readRegistry({ registry, snapshotId: snapshotId - 1n })
        : undefined
    const event = snapshot
      ? await readers.readPublication({
          registry,
          snapshotId,
          blockNumber: snapshot.publishedBlock,
        })
      : undefined
    const block = snapshot
      ? await readers.readBlock({ blockNumber: snapshot.publishedBlock })
      : undefined
    return { snapshot, previous, event, block }
  })
  if (!read.ok) return [false, `could not read the registry: ${read.error}`]
  const { snapshot: s, previous: p, event: e, block } = read.value
  if (!s) return [false, `snapshot ${snapshotId} is not in the registry`]
  const broken = [
    s.publishedBlock - s.blockNumber > rules.maxBlockAge &&
      `block B ${s.blockNumber} was ${s.publishedBlock - s.blockNumber} blocks old at the publication, more than ${rules.maxBlockAge}`,
    (s.leafCount === 0n || s.leafCount > 2n ** 32n) && `a tree of ${s.leafCount} leaves`,
    snapshotId > 1n && !p && `the previous snapshot ${snapshotId - 1n} is missing`,
    p && s.blockNumber <= p.blockNumber && `block B is not after the previous snapshot's`,
    p &&
      s.publishedAt < p.publishedAt + rules.minInterval &&
      `published ${s.publishedAt - p.publishedAt} s after the previous snapshot, less than ${rules.minInterval}`,
    !block && `the publication block ${s.publishedBlock} is not on this chain`,
    block && block.timestamp !== s.publishedAt && `the publication time is not its block's time`,
    !e && `no publication of snapshot ${snapshotId} in block ${s.publishedBlock}`,
    e && !samePublication(e, s) && `the registry's storage differs from what its publication said`,
  ].filter((x): x is string => !!x)
  if (broken.length) return [false, broken.join('; ')]
  return [
    true,
    `published ${p ? `${s.publishedAt - p.publishedAt} s after the previous snapshot (at least ${rules.minInterval})` : 'first'}, block B ${s.publishedBlock - s.blockNumber} blocks old (at most ${rules.maxBlockAge}), ledger position ${s.ledgerCut}, ${s.leafCount} leaves, as the publication said`,
    {
      minIntervalHours: (Number(rules.minInterval) / 3600).toFixed(1),
      ledgerCut: String(s.ledgerCut),
      leaves: String(s.leafCount),
    },
  ]
}

function samePublication(e: PublishedEvent, s: AnchoredSnapshot): boolean {
  return (
    e.root.toLowerCase() === s.root.toLowerCase() &&
    e.totalUsdt === s.totalUsdt &&
    e.totalHope === s.totalHope &&
    e.blockNumber === s.blockNumber &&
    e.token.toLowerCase() === s.token.toLowerCase() &&
    e.tokenDecimals === s.tokenDecimals &&
    e.ledgerCut === s.ledgerCut &&
    e.leafCount === s.leafCount &&
    e.reserves.length === s.reserves.length &&
    e.reserves.every((r, i) => r.toLowerCase() === s.reserves[i]!.toLowerCase())
  )
}

const max = (a: bigint, b: bigint) => (a > b ? a : b)

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
  const contracts: string[] = []
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
    contracts.push(address)
  }
  return [
    true,
    contracts.length === 0
      ? `${proof.reserves.length} reserve address(es), each signed by its key`
      : `${proof.reserves.length} reserve address(es), each signed by its key or, for ${contracts.length} contract(s), by its owner (EIP-1271)`,
    { count: String(proof.reserves.length), contracts: contracts.join(',') },
  ]
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: string; cause: unknown }

async function attempt<T>(run: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await run() }
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error)
    return { ok: false, error: message, cause: error }
  }
}

const usdt = (v: bigint) => `${formatUnits(v, USDT_DECIMALS)} USDT`
const hope = (v: bigint) => `${formatUnits(v, HOPE_DECIMALS)} HOPE`
const short = (hex: string) => `${hex.slice(0, 10)}…${hex.slice(-6)}`
