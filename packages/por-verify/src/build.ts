// Builds a snapshot's tree from every account's balances: each balance split into 1–3 parts at
// random positions among 2^32, with a random number of zero-sum padding leaves, raised over the
// occupied nodes only. Memory is a few packed arrays per leaf: the leaves, and the upper levels
// once they hold at most a quarter as many nodes; a sibling below that is recomputed from the
// few leaves under it. The same arrays, in chunks, are what the server stores (see below).
import {
  ADDRESS_BYTES,
  encodeAddress,
  encodeSnapshotId,
  HASH_BYTES,
  LEAF_TAG,
  MAX_PARTS,
  nobleHashing,
  PAD_TAG,
  POSITION_BYTES,
  readSum,
  SALT_BYTES,
  SNAPSHOT_ID_BYTES,
  SUM_BOUND,
  SUM_BYTES,
  toHex,
  TREE_HEIGHT,
  writeSum,
  type Hashing,
} from './encoding.ts'
import type { ProofPart } from './proof.ts'
import {
  allocateLevel,
  copyRows,
  PadWriter,
  raiseLevel,
  sliceLevel,
  type LevelNodes,
} from './tree.ts'

export interface AccountBalance {
  /** 0x-prefixed, 20 bytes, any letter case. */
  address: string
  /** USDT owed, integer at scale 6. */
  usdt: bigint
  /** HOPE owed, integer at scale 18. */
  hope: bigint
}

/** Accounts packed into transferable arrays: `count` rows. */
export interface PackedAccounts {
  count: number
  address: Uint8Array
  usdt: Uint8Array
  hope: Uint8Array
}

/** Random bytes; the build draws from it for the splits. */
export type RandomBytes = (length: number) => Uint8Array

export interface BuildInput {
  snapshotId: bigint
  /** The per-snapshot secret (≥ 16 bytes). It keys the salts, the positions and the pads. */
  secret: Uint8Array
  accounts: Iterable<AccountBalance> | PackedAccounts
  /** For the splits; by default a stream keyed by the secret, so a build is reproducible. */
  random?: RandomBytes
  /** The hash functions; the server's worker passes Node's native SHA-256. */
  hashing?: Hashing
  /** The tree's height: always 32 in use; tests build smaller trees. */
  height?: number
}

/** Everything a built tree holds, as plain arrays a worker can transfer. */
export interface SnapshotTreeState {
  snapshotId: bigint
  height: number
  secret: Uint8Array
  accountCount: number
  /** 20 bytes an account. */
  accountAddress: Uint8Array
  /** MAX_PARTS rows an account: the leaf row of each part, NO_LEAF past its last. */
  accountLeaves: Uint32Array
  /** Account rows sorted by address: the lookup. */
  addressOrder: Uint32Array
  /** Level 0: the leaves, sorted by position. */
  leaves: LevelNodes
  /** Levels storedFrom..height, each sorted by index; the last one is the root. */
  upper: LevelNodes[]
  storedFrom: number
}

const NO_LEAF = 0xffff_ffff
const MIN_SECRET_BYTES = 16

/** Packs accounts into arrays; refuses a malformed address or a balance outside [0, 2^127). */
export function packAccounts(accounts: Iterable<AccountBalance>): PackedAccounts {
  let rows = 1024
  let packed = { count: 0, ...allocateAccounts(rows) }
  for (const account of accounts) {
    if (packed.count === rows) {
      rows *= 2
      const grown = allocateAccounts(rows)
      grown.address.set(packed.address)
      grown.usdt.set(packed.usdt)
      grown.hope.set(packed.hope)
      packed = { count: packed.count, ...grown }
    }
    const row = packed.count
    for (const value of [account.usdt, account.hope])
      if (value < 0n || value >= SUM_BOUND)
        throw new RangeError(`balance of ${account.address} out of range`)
    packed.address.set(encodeAddress(account.address), row * ADDRESS_BYTES)
    writeSum(packed.usdt, row * SUM_BYTES, account.usdt)
    writeSum(packed.hope, row * SUM_BYTES, account.hope)
    packed.count += 1
  }
  return {
    count: packed.count,
    address: packed.address.slice(0, packed.count * ADDRESS_BYTES),
    usdt: packed.usdt.slice(0, packed.count * SUM_BYTES),
    hope: packed.hope.slice(0, packed.count * SUM_BYTES),
  }
}

function allocateAccounts(rows: number) {
  return {
    address: new Uint8Array(rows * ADDRESS_BYTES),
    usdt: new Uint8Array(rows * SUM_BYTES),
    hope: new Uint8Array(rows * SUM_BYTES),
  }
}

/**
 * Builds the tree of one snapshot. Reproducible: the same secret and accounts in the same order
 * give the same tree (unless `random` is passed). Throws on a repeated address, on a total of
 * 2^127 or more, and on more parts than positions.
 *
 * @example
 * const tree = buildSnapshotTree({ snapshotId: 7n, secret, accounts: [{ address, usdt: 5_000_000n, hope: 0n }] })
 * tree.root // 0x…, tree.totals.usdt === 5_000_000n, tree.partsFor(address) // the user's proof parts
 */
export function buildSnapshotTree(input: BuildInput): SnapshotTree {
  const hashing = input.hashing ?? nobleHashing
  const height = input.height ?? TREE_HEIGHT
  if (!Number.isInteger(height) || height < 1 || height > TREE_HEIGHT)
    throw new RangeError(`height: 1..${TREE_HEIGHT}`)
  if (input.secret.length < MIN_SECRET_BYTES) throw new RangeError('secret: at least 16 bytes')
  const accounts = isPacked(input.accounts) ? input.accounts : packAccounts(input.accounts)
  const m = accounts.count
  const capacity = 2 ** (height - 1)
  if (m * MAX_PARTS > capacity) throw new RangeError('too many accounts for the height')
  const addressOrder = orderAddresses(accounts)
  const random = input.random ?? hmacStream(hashing, input.secret, 'split').bytes

  // How many parts each account has, then the padding leaves: zero-sum leaves at random
  // positions, so that the number of leaves does not give the number of accounts.
  const partCounts = new Uint8Array(m)
  let real = 0
  for (let a = 0; a < m; a++) real += partCounts[a] = drawPartCount(random)
  const padding = drawPadding(hmacStream(hashing, input.secret, 'padding').bytes, real, capacity)
  const n = real + padding

  const pads = new PadWriter(hashing, input.snapshotId, padSaltOf(hashing, input.secret))
  const { leaves, leafOfPart } = placeLeaves(hashing, input, pads, { real, n, height })
  const accountLeaves = writePartLeaves(hashing, input, accounts, {
    partCounts,
    leaves,
    leafOfPart,
    random,
  })
  const { upper, storedFrom } = raiseTree(hashing, pads, leaves, height)

  return new SnapshotTree(
    {
      snapshotId: input.snapshotId,
      height,
      secret: input.secret,
      accountCount: m,
      accountAddress: accounts.address,
      accountLeaves,
      addressOrder,
      leaves,
      upper,
      storedFrom,
    },
    hashing,
  )
}

/**
 * Distinct random positions, the leaves sorted by position. Key rows below `real` are the parts
 * in account order, the others padding leaves (a pad's hash, sums 0), written here.
 */
export function placeLeaves(
  hashing: Hashing,
  input: Pick<BuildInput, 'secret'>,
  pads: PadWriter,
  size: { real: number; n: number; height: number },
): { leaves: LevelNodes; leafOfPart: Uint32Array } {
  const { real, n, height } = size
  const keys = drawPositions(hashing, input.secret, n, height)
  const leaves = allocateLevel(n)
  leaves.count = n
  const leafOfPart = new Uint32Array(real)
  for (let r = 0; r < n; r++) {
    const key = keys[r]!
    const row = Number(key & 0xffff_ffffn)
    leaves.index[r] = Number(key >> 32n)
    if (row < real) leafOfPart[row] = r
    else pads.write(leaves.hash, r * HASH_BYTES, 0, leaves.index[r]!)
  }
  return { leaves, leafOfPart }
}

/**
 * Each account's balances split into its parts, written into the leaves placed for them with
 * their hashes; answers the leaf row of each part (MAX_PARTS rows an account, NO_LEAF past its
 * last).
 */
export function writePartLeaves(
  hashing: Hashing,
  input: Pick<BuildInput, 'secret' | 'snapshotId'>,
  accounts: PackedAccounts,
  placed: {
    partCounts: Uint8Array
    leaves: LevelNodes
    leafOfPart: Uint32Array
    random: RandomBytes
  },
): Uint32Array {
  const { partCounts, leaves, leafOfPart, random } = placed
  const m = accounts.count
  const accountLeaves = new Uint32Array(m * MAX_PARTS).fill(NO_LEAF)
  const leafInput = new Uint8Array(LEAF_INPUT_BYTES)
  leafInput.set(LEAF_TAG)
  leafInput.set(encodeSnapshotId(input.snapshotId), LEAF_TAG.length)
  for (let a = 0, row = 0; a < m; a++) {
    const count = partCounts[a]!
    const usdt = splitAmount(readSum(accounts.usdt, a * SUM_BYTES), count, random)
    const hope = splitAmount(readSum(accounts.hope, a * SUM_BYTES), count, random)
    const address = addressAt(accounts.address, a)
    for (let part = 0; part < count; part++, row++) {
      const r = leafOfPart[row]!
      writeSum(leaves.usdt, r * SUM_BYTES, usdt[part]!)
      writeSum(leaves.hope, r * SUM_BYTES, hope[part]!)
      accountLeaves[a * MAX_PARTS + part] = r
      writeLeafInput(leafInput, address, part, saltOf(hashing, input.secret, address, part))
      leafInput.set(leaves.usdt.subarray(r * SUM_BYTES, (r + 1) * SUM_BYTES), LEAF_SUMS_AT)
      leafInput.set(
        leaves.hope.subarray(r * SUM_BYTES, (r + 1) * SUM_BYTES),
        LEAF_SUMS_AT + SUM_BYTES,
      )
      leaves.hash.set(hashing.sha256(leafInput), r * HASH_BYTES)
    }
  }
  return accountLeaves
}

/**
 * The levels above the leaves, from the first one kept whole to the root. The leaves under each
 * node of the first kept level are raised in a small scratch space, so the build never holds a
 * second copy of the leaves; the kept levels are then raised whole. An empty tree's root is the
 * pad at its height.
 */
export function raiseTree(
  hashing: Hashing,
  pads: PadWriter,
  leaves: LevelNodes,
  height: number,
): { upper: LevelNodes[]; storedFrom: number } {
  const n = leaves.count
  const storedFrom = firstKeptLevel(leaves, height)
  const kept = allocateLevel(occupiedAt(leaves, storedFrom))
  let scratch = allocateLevel(64)
  for (let from = 0; from < n;) {
    const ancestor = ancestorOf(leaves.index[from]!, storedFrom)
    let to = from + 1
    while (to < n && ancestorOf(leaves.index[to]!, storedFrom) === ancestor) to++
    if (to - from > scratch.index.length) scratch = allocateLevel(2 * (to - from))
    copyRows(leaves, from, to, scratch, 0)
    scratch.count = to - from
    for (let level = 0; level < storedFrom; level++)
      raiseLevel(hashing, pads, level, scratch, scratch)
    copyRows(scratch, 0, 1, kept, kept.count++)
    from = to
  }
  const upper: LevelNodes[] = [kept]
  for (let level = storedFrom; level < height; level++) {
    const below = upper[upper.length - 1]!
    const next = allocateLevel(occupiedAt(below, 1))
    raiseLevel(hashing, pads, level, below, next)
    upper.push(next)
  }
  if (n === 0) {
    const root = upper[upper.length - 1]!
    root.count = 1
    root.index = new Uint32Array(1)
    root.usdt = new Uint8Array(SUM_BYTES)
    root.hope = new Uint8Array(SUM_BYTES)
    root.hash = new Uint8Array(HASH_BYTES)
    pads.write(root.hash, 0, height, 0)
  }
  return { upper, storedFrom }
}

/**
 * Padding leaves: a number drawn uniformly from 0 to half the parts (to 64 for small trees),
 * never past `capacity`; none in an empty tree.
 */
export const MIN_PADDING_LEAVES = 64

function drawPadding(random: RandomBytes, real: number, capacity: number): number {
  const most = Math.min(Math.max(Math.ceil(real / 2), MIN_PADDING_LEAVES), capacity - real)
  if (real === 0 || most <= 0) return 0
  const b = random(6)
  const draw = b.reduce((v, byte) => v * 256 + byte, 0) // 48 bits, uniform enough for ≤ 2^31
  return draw % (most + 1)
}

/** The node of `level` above `position` (level ≤ 32). */
function ancestorOf(position: number, level: number): number {
  return level >= 32 ? 0 : position >>> level
}

/** How many nodes `level` levels above the sorted `nodes` are occupied. */
function occupiedAt(leaves: LevelNodes, level: number): number {
  let count = 0
  let previous = -1
  for (let r = 0; r < leaves.count; r++) {
    const node = ancestorOf(leaves.index[r]!, level)
    if (node !== previous) count++
    previous = node
  }
  return count
}

/** The first level kept whole: at most a quarter as many nodes as leaves, or the root's. */
function firstKeptLevel(leaves: LevelNodes, height: number): number {
  for (let level = 1; level < height; level++)
    if (occupiedAt(leaves, level) * 4 <= leaves.count) return level
  return height
}

/** A built tree: its root and totals, and each account's proof parts. */
export class SnapshotTree {
  readonly state: SnapshotTreeState
  readonly #hashing: Hashing
  readonly #pads: PadWriter

  constructor(state: SnapshotTreeState, hashing: Hashing = nobleHashing) {
    this.state = state
    this.#hashing = hashing
    this.#pads = new PadWriter(hashing, state.snapshotId, padSaltOf(hashing, state.secret))
  }

  get snapshotId(): bigint {
    return this.state.snapshotId
  }

  get height(): number {
    return this.state.height
  }

  get root(): `0x${string}` {
    return toHex(this.#rootLevel.hash.subarray(0, HASH_BYTES))
  }

  /** The liabilities committed: the root's sums. */
  get totals(): { usdt: bigint; hope: bigint } {
    return { usdt: readSum(this.#rootLevel.usdt, 0), hope: readSum(this.#rootLevel.hope, 0) }
  }

  get leafCount(): number {
    return this.state.leaves.count
  }

  get accountCount(): number {
    return this.state.accountCount
  }

  /** The balance committed for an address (the sum of its parts), or undefined if absent. */
  balanceOf(address: string): { usdt: bigint; hope: bigint } | undefined {
    const parts = this.#leafRows(address)
    if (!parts) return undefined
    const { leaves } = this.state
    return {
      usdt: parts.reduce((s, { row }) => s + readSum(leaves.usdt, row * SUM_BYTES), 0n),
      hope: parts.reduce((s, { row }) => s + readSum(leaves.hope, row * SUM_BYTES), 0n),
    }
  }

  /** An address's parts with salts, positions and paths, or undefined if it is not in the tree. */
  partsFor(address: string): ProofPart[] | undefined {
    const rows = this.#leafRows(address)
    if (!rows) return undefined
    const { leaves, secret } = this.state
    const bytes = encodeAddress(address)
    return rows.map(({ part, row }) => {
      const position = leaves.index[row]!
      const path = []
      for (let level = 0; level < this.height; level++) {
        const sibling = (Math.floor(position / 2 ** level) ^ 1) >>> 0
        const node = this.#node(level, sibling)
        path.push({
          hash: toHex(node.hash),
          usdt: readSum(node.usdt, 0).toString(),
          hope: readSum(node.hope, 0).toString(),
        })
      }
      return {
        part,
        position,
        salt: toHex(saltOf(this.#hashing, secret, bytes, part)),
        usdt: readSum(leaves.usdt, row * SUM_BYTES).toString(),
        hope: readSum(leaves.hope, row * SUM_BYTES).toString(),
        path,
      }
    })
  }

  get #rootLevel(): LevelNodes {
    return this.state.upper[this.state.upper.length - 1]!
  }

  #leafRows(address: string): { part: number; row: number }[] | undefined {
    const account = findAccount(this.state, encodeAddress(address))
    if (account === undefined) return undefined
    const rows = []
    for (let part = 0; part < MAX_PARTS; part++) {
      const row = this.state.accountLeaves[account * MAX_PARTS + part]!
      if (row !== NO_LEAF) rows.push({ part, row })
    }
    return rows
  }

  /** Node `index` of `level`: stored, recomputed from the leaves under it, or a pad. */
  #node(level: number, index: number): { hash: Uint8Array; usdt: Uint8Array; hope: Uint8Array } {
    const { leaves, upper, storedFrom } = this.state
    let source: LevelNodes
    let row: number
    if (level >= storedFrom) {
      source = upper[level - storedFrom]!
      row = lowerBound(source.index, source.count, index)
      if (row >= source.count || source.index[row] !== index) return this.#pad(level, index)
    } else {
      const from = lowerBound(leaves.index, leaves.count, index * 2 ** level)
      const to = lowerBound(leaves.index, leaves.count, (index + 1) * 2 ** level)
      if (from === to) return this.#pad(level, index)
      source = sliceLevel(leaves, from, to)
      for (let l = 0; l < level; l++) raiseLevel(this.#hashing, this.#pads, l, source, source)
      row = 0
    }
    return {
      hash: source.hash.subarray(row * HASH_BYTES, (row + 1) * HASH_BYTES),
      usdt: source.usdt.subarray(row * SUM_BYTES, (row + 1) * SUM_BYTES),
      hope: source.hope.subarray(row * SUM_BYTES, (row + 1) * SUM_BYTES),
    }
  }

  #pad(level: number, index: number) {
    const hash = new Uint8Array(HASH_BYTES)
    this.#pads.write(hash, 0, level, index)
    return { hash, usdt: new Uint8Array(SUM_BYTES), hope: new Uint8Array(SUM_BYTES) }
  }
}

/** The arrays to list as transferables when a state crosses threads. */
export function stateBuffers(state: SnapshotTreeState): ArrayBuffer[] {
  const levels = [state.leaves, ...state.upper]
  const views = [
    state.accountAddress,
    state.accountLeaves,
    state.addressOrder,
    ...levels.flatMap((l) => [l.index, l.hash, l.usdt, l.hope]),
  ]
  return [...new Set(views.map((v) => v.buffer as ArrayBuffer))]
}

// A tree is stored as chunks of packed nodes: the leaves (padding included) and the kept upper
// levels, each once, and the accounts in address order with the positions of their parts. One
// account's proof is rebuilt from the few chunks its paths touch, and the per-snapshot secret.

/** Nodes per stored chunk (68 bytes each: index, hash, USDT sum, HOPE sum). */
export const NODES_PER_CHUNK = 24
/** Accounts per stored chunk (33 bytes each: address, part count, leaf positions). */
export const ACCOUNTS_PER_CHUNK = 48
const NODE_RECORD_BYTES = POSITION_BYTES + HASH_BYTES + 2 * SUM_BYTES
const ACCOUNT_RECORD_BYTES = ADDRESS_BYTES + 1 + MAX_PARTS * POSITION_BYTES

/** Consecutive occupied nodes of one level (0: the leaves), sorted by index, packed. */
export interface NodeChunk {
  level: number
  firstIndex: number
  nodes: Uint8Array
}

/** Consecutive accounts in address order, each with the positions of its parts, packed. */
export interface AccountChunk {
  firstAddress: Uint8Array
  accounts: Uint8Array
}

/** Where a stored tree keeps its levels whole: besides the leaves, storedFrom..height. */
export interface StoredTreeShape {
  height: number
  storedFrom: number
}

/** The nodes [from, to) of one level. */
export interface NodeRange {
  level: number
  from: number
  to: number
}

/** The chunks of every stored node: the leaves, then the kept levels up to the root. */
export function* nodeChunks(state: SnapshotTreeState): Generator<NodeChunk> {
  const levels: [number, LevelNodes][] = [
    [0, state.leaves],
    ...state.upper.map((nodes, i): [number, LevelNodes] => [state.storedFrom + i, nodes]),
  ]
  for (const [level, nodes] of levels)
    for (let from = 0; from < nodes.count; from += NODES_PER_CHUNK) {
      const to = Math.min(from + NODES_PER_CHUNK, nodes.count)
      const packed = new Uint8Array((to - from) * NODE_RECORD_BYTES)
      const view = new DataView(packed.buffer)
      for (let r = from, at = 0; r < to; r++, at += NODE_RECORD_BYTES) {
        view.setUint32(at, nodes.index[r]!)
        packed.set(nodes.hash.subarray(r * HASH_BYTES, (r + 1) * HASH_BYTES), at + 4)
        packed.set(nodes.usdt.subarray(r * SUM_BYTES, (r + 1) * SUM_BYTES), at + 36)
        packed.set(nodes.hope.subarray(r * SUM_BYTES, (r + 1) * SUM_BYTES), at + 52)
      }
      yield { level, firstIndex: nodes.index[from]!, nodes: packed }
    }
}

/** The chunks of the accounts, in address order. */
export function* accountChunks(state: SnapshotTreeState): Generator<AccountChunk> {
  const { addressOrder, accountAddress, accountLeaves, leaves } = state
  for (let from = 0; from < state.accountCount; from += ACCOUNTS_PER_CHUNK) {
    const to = Math.min(from + ACCOUNTS_PER_CHUNK, state.accountCount)
    const packed = new Uint8Array((to - from) * ACCOUNT_RECORD_BYTES)
    const view = new DataView(packed.buffer)
    for (let i = from, at = 0; i < to; i++, at += ACCOUNT_RECORD_BYTES) {
      const a = addressOrder[i]!
      packed.set(addressAt(accountAddress, a), at)
      let count = 0
      for (let part = 0; part < MAX_PARTS; part++) {
        const row = accountLeaves[a * MAX_PARTS + part]!
        if (row === NO_LEAF) break
        view.setUint32(at + ADDRESS_BYTES + 1 + part * POSITION_BYTES, leaves.index[row]!)
        count++
      }
      packed[at + ADDRESS_BYTES] = count
    }
    yield { firstAddress: addressAt(accountAddress, addressOrder[from]!).slice(), accounts: packed }
  }
}

/** The positions of an address's parts in its account chunk, or undefined if it is absent. */
export function positionsIn(accounts: Uint8Array, address: string): number[] | undefined {
  const target = encodeAddress(address)
  const view = new DataView(accounts.buffer, accounts.byteOffset, accounts.byteLength)
  for (let at = 0; at + ACCOUNT_RECORD_BYTES <= accounts.length; at += ACCOUNT_RECORD_BYTES) {
    if (!target.every((byte, k) => accounts[at + k] === byte)) continue
    const count = accounts[at + ADDRESS_BYTES]!
    return Array.from({ length: count }, (_, part) =>
      view.getUint32(at + ADDRESS_BYTES + 1 + part * POSITION_BYTES),
    )
  }
  return undefined
}

/**
 * The node ranges a proof of parts at `positions` reads: the root, for each part the leaves
 * under its node of the first kept level (the siblings below are recomputed from them), and
 * its siblings on the kept levels. At most 1 + 3 × (height − storedFrom + 1) ranges.
 */
export function proofRanges(shape: StoredTreeShape, positions: readonly number[]): NodeRange[] {
  const ranges = new Map<string, NodeRange>()
  const add = (level: number, from: number, to: number) =>
    ranges.set(`${level}:${from}`, { level, from, to })
  add(shape.height, 0, 1)
  const span = 2 ** shape.storedFrom
  for (const position of positions) {
    const under = Math.floor(position / span)
    add(0, under * span, (under + 1) * span)
    for (let level = shape.storedFrom; level < shape.height; level++) {
      const sibling = (Math.floor(position / 2 ** level) ^ 1) >>> 0
      add(level, sibling, sibling + 1)
    }
  }
  return [...ranges.values()]
}

/**
 * A tree holding one account and the nodes its proof needs, rebuilt from the stored chunks that
 * cover `proofRanges` (any chunk of a level whose nodes overlap a range, and for a single node
 * the chunk it would be in). Its root, totals, `partsFor` and `balanceOf` are the full tree's.
 * Throws when a chunk lacks one of the account's leaves.
 */
export function treeForAccount(input: {
  snapshotId: bigint
  secret: Uint8Array
  shape: StoredTreeShape
  address: string
  positions: readonly number[]
  chunks: readonly NodeChunk[]
  hashing?: Hashing
}): SnapshotTree {
  const { shape } = input
  const levelOf = (level: number) => unpackChunks(input.chunks.filter((c) => c.level === level))
  const leaves = levelOf(0)
  const upper: LevelNodes[] = []
  for (let level = shape.storedFrom; level <= shape.height; level++) upper.push(levelOf(level))
  const accountLeaves = new Uint32Array(MAX_PARTS).fill(NO_LEAF)
  input.positions.forEach((position, part) => {
    const row = lowerBound(leaves.index, leaves.count, position)
    if (leaves.index[row] !== position || row >= leaves.count)
      throw new Error(`the stored tree lacks the leaf at ${position}`)
    accountLeaves[part] = row
  })
  return new SnapshotTree(
    {
      snapshotId: input.snapshotId,
      height: shape.height,
      secret: input.secret,
      accountCount: 1,
      accountAddress: encodeAddress(input.address),
      accountLeaves,
      addressOrder: Uint32Array.of(0),
      leaves,
      upper,
      storedFrom: shape.storedFrom,
    },
    input.hashing,
  )
}

/** The nodes of chunks of one level, in index order, each chunk once. */
function unpackChunks(chunks: readonly NodeChunk[]): LevelNodes {
  const distinct = [...new Map(chunks.map((c) => [c.firstIndex, c])).values()].sort(
    (x, y) => x.firstIndex - y.firstIndex,
  )
  const level = allocateLevel(distinct.reduce((n, c) => n + c.nodes.length / NODE_RECORD_BYTES, 0))
  for (const chunk of distinct) {
    const view = new DataView(chunk.nodes.buffer, chunk.nodes.byteOffset, chunk.nodes.byteLength)
    for (let at = 0; at < chunk.nodes.length; at += NODE_RECORD_BYTES) {
      const r = level.count++
      level.index[r] = view.getUint32(at)
      level.hash.set(chunk.nodes.subarray(at + 4, at + 36), r * HASH_BYTES)
      level.usdt.set(chunk.nodes.subarray(at + 36, at + 52), r * SUM_BYTES)
      level.hope.set(chunk.nodes.subarray(at + 52, at + 68), r * SUM_BYTES)
    }
  }
  return level
}

// salt = HMAC-SHA256(secret, address ‖ part): only the builder, holding the secret, can make it.
function saltOf(hashing: Hashing, secret: Uint8Array, address: Uint8Array, part: number) {
  const message = new Uint8Array(ADDRESS_BYTES + 1)
  message.set(address)
  message[ADDRESS_BYTES] = part
  return hashing.hmacSha256(secret, message)
}

function padSaltOf(hashing: Hashing, secret: Uint8Array): Uint8Array {
  return hashing.hmacSha256(secret, PAD_TAG)
}

const LEAF_ADDRESS_AT = LEAF_TAG.length + SNAPSHOT_ID_BYTES
const LEAF_SUMS_AT = LEAF_ADDRESS_AT + ADDRESS_BYTES + 1 + SALT_BYTES
const LEAF_INPUT_BYTES = LEAF_SUMS_AT + 2 * SUM_BYTES

function writeLeafInput(input: Uint8Array, address: Uint8Array, part: number, salt: Uint8Array) {
  input.set(address, LEAF_ADDRESS_AT)
  input[LEAF_ADDRESS_AT + ADDRESS_BYTES] = part
  input.set(salt, LEAF_ADDRESS_AT + ADDRESS_BYTES + 1)
}

/** A deterministic byte stream: HMAC-SHA256(key, label ‖ counter), block after block. */
export function hmacStream(hashing: Hashing, key: Uint8Array, label: string) {
  const prefix = new TextEncoder().encode(`HOPE-PoL-${label}-v1`)
  const message = new Uint8Array(prefix.length + 8)
  message.set(prefix)
  const view = new DataView(message.buffer)
  let counter = 0n
  let block: Uint8Array = new Uint8Array(0)
  let at = 0
  const bytes = (length: number): Uint8Array => {
    const out = new Uint8Array(length)
    for (let i = 0; i < length; i++) {
      if (at === block.length) {
        view.setBigUint64(prefix.length, counter++)
        block = hashing.hmacSha256(key, message)
        at = 0
      }
      out[i] = block[at++]!
    }
    return out
  }
  return { bytes }
}

/** 1, 2 or 3, uniformly. */
function drawPartCount(random: RandomBytes): number {
  for (;;) {
    const byte = random(1)[0]!
    if (byte < 255) return 1 + (byte % MAX_PARTS)
  }
}

/** `count` non-negative parts adding up to `amount`, cut at uniformly random points. */
export function splitAmount(amount: bigint, count: number, random: RandomBytes): bigint[] {
  const cuts: bigint[] = []
  for (let i = 1; i < count; i++) cuts.push(bytesToBigInt(random(32)) % (amount + 1n))
  cuts.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const parts: bigint[] = []
  let previous = 0n
  for (const cut of [...cuts, amount]) {
    parts.push(cut - previous)
    previous = cut
  }
  return parts
}

/** n keys (position << 32 | part row) with distinct positions in [0, 2^height), sorted. */
function drawPositions(hashing: Hashing, secret: Uint8Array, n: number, height: number) {
  const stream = hmacStream(hashing, secret, 'positions')
  const shift = 32 - height
  const draw = () => {
    const b = stream.bytes(4)
    return ((((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0) >>> shift) >>> 0
  }
  const keys = new BigUint64Array(n)
  for (let i = 0; i < n; i++) keys[i] = (BigInt(draw()) << 32n) | BigInt(i)
  for (;;) {
    keys.sort()
    let redrawn = false
    for (let i = 1; i < n; i++)
      if (keys[i]! >> 32n === keys[i - 1]! >> 32n) {
        keys[i] = (BigInt(draw()) << 32n) | (keys[i]! & 0xffff_ffffn)
        redrawn = true
      }
    if (!redrawn) return keys
  }
}

/** Account rows sorted by address: the lookup. Throws on a repeated address. */
function orderAddresses(accounts: PackedAccounts): Uint32Array {
  const view = new DataView(accounts.address.buffer, accounts.address.byteOffset)
  const order = new Uint32Array(accounts.count).map((_, a) => a)
  order.sort((a, b) => compareAddresses(view, a * ADDRESS_BYTES, view, b * ADDRESS_BYTES))
  for (let i = 1; i < order.length; i++)
    if (
      compareAddresses(view, order[i]! * ADDRESS_BYTES, view, order[i - 1]! * ADDRESS_BYTES) === 0
    )
      throw new RangeError(`address listed twice: ${toHex(addressAt(accounts.address, order[i]!))}`)
  return order
}

function findAccount(state: SnapshotTreeState, address: Uint8Array): number | undefined {
  const target = new DataView(address.buffer, address.byteOffset, ADDRESS_BYTES)
  const view = new DataView(state.accountAddress.buffer, state.accountAddress.byteOffset)
  const { addressOrder } = state
  let lo = 0
  let hi = addressOrder.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compareAddresses(view, addressOrder[mid]! * ADDRESS_BYTES, target, 0) < 0) lo = mid + 1
    else hi = mid
  }
  const account = addressOrder[lo]
  if (account === undefined) return undefined
  return compareAddresses(view, account * ADDRESS_BYTES, target, 0) === 0 ? account : undefined
}

function compareAddresses(x: DataView, xAt: number, y: DataView, yAt: number): number {
  for (let k = 0; k < ADDRESS_BYTES; k += 4) {
    const d = x.getUint32(xAt + k) - y.getUint32(yAt + k)
    if (d !== 0) return d
  }
  return 0
}

function addressAt(addresses: Uint8Array, account: number): Uint8Array {
  return addresses.subarray(account * ADDRESS_BYTES, (account + 1) * ADDRESS_BYTES)
}

/** The first row whose value is ≥ `value` (values sorted ascending). */
function lowerBound(values: Uint32Array, count: number, value: number): number {
  let lo = 0
  let hi = count
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (values[mid]! < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  let value = 0n
  for (const byte of bytes) value = (value << 8n) | BigInt(byte)
  return value
}

function isPacked(accounts: BuildInput['accounts']): accounts is PackedAccounts {
  return 'count' in accounts && accounts.address instanceof Uint8Array
}
