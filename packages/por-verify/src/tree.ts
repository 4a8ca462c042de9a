// The sparse Merkle-sum tree's formulas, pure. Two forms of the same arithmetic: one on bigints
// for a verifier walking a single path, one on packed bytes for the builder raising a whole
// level at a time over the occupied nodes only (an empty subtree is one salted pad, sum 0).
import {
  ADDRESS_BYTES,
  encodePart,
  encodePosition,
  encodeSnapshotId,
  encodeSum,
  HASH_BYTES,
  LEAF_TAG,
  NODE_TAG,
  PAD_TAG,
  SALT_BYTES,
  SNAPSHOT_ID_BYTES,
  SUM_BYTES,
  type Hashing,
} from './encoding.ts'

/** A node as a verifier sees it: its hash and the two sums under it. */
export interface TreeNode {
  hash: Uint8Array
  usdt: bigint
  hope: bigint
}

export interface LeafFields {
  snapshotId: bigint
  /** 20 bytes. */
  address: Uint8Array
  part: number
  /** 32 bytes. */
  salt: Uint8Array
  usdt: bigint
  hope: bigint
}

/** leaf = SHA-256(leafTag ‖ snapshotId ‖ address ‖ part ‖ salt ‖ usdt ‖ hope). */
export function hashLeaf(hashing: Hashing, leaf: LeafFields): Uint8Array {
  if (leaf.address.length !== ADDRESS_BYTES) throw new RangeError('address: 20 bytes')
  if (leaf.salt.length !== SALT_BYTES) throw new RangeError('salt: 32 bytes')
  return hashing.sha256(
    concat(
      LEAF_TAG,
      encodeSnapshotId(leaf.snapshotId),
      leaf.address,
      encodePart(leaf.part),
      leaf.salt,
      encodeSum(leaf.usdt),
      encodeSum(leaf.hope),
    ),
  )
}

/**
 * node = SHA-256(nodeTag ‖ leftHash ‖ leftUsdt ‖ leftHope ‖ rightHash ‖ rightUsdt ‖ rightHope),
 * its sums left + right. Both children's sums are hashed, not only their total, so value moved
 * from one child to the other changes the hash. Throws a RangeError on a sum outside [0, 2^127).
 */
export function hashNode(hashing: Hashing, left: TreeNode, right: TreeNode): TreeNode {
  const usdt = left.usdt + right.usdt
  const hope = left.hope + right.hope
  encodeSum(usdt)
  encodeSum(hope)
  const hash = hashing.sha256(
    concat(
      NODE_TAG,
      left.hash,
      encodeSum(left.usdt),
      encodeSum(left.hope),
      right.hash,
      encodeSum(right.usdt),
      encodeSum(right.hope),
    ),
  )
  return { hash, usdt, hope }
}

/**
 * An empty subtree: pad = SHA-256(padTag ‖ snapshotId ‖ level ‖ index ‖ padSalt), sum 0. One pad
 * per (level, index), keyed by the snapshot's secret pad salt: a pad looks like any node's hash,
 * so the empty subtrees on a path do not show how full the tree is. At level 0 it is also the
 * hash of a padding leaf (an occupied position with no account).
 */
export function hashPad(
  hashing: Hashing,
  snapshotId: bigint,
  level: number,
  index: number,
  padSalt: Uint8Array,
): Uint8Array {
  return hashing.sha256(
    concat(
      PAD_TAG,
      encodeSnapshotId(snapshotId),
      Uint8Array.of(level),
      encodePosition(index),
      padSalt,
    ),
  )
}

/**
 * Walks from a leaf at `position` up its path (siblings from level 0 upwards) to the root. The
 * position's bit at each level says whether the running node is the left (0) or right (1) child.
 * Throws a RangeError when a sibling or a parent sum leaves [0, 2^127).
 */
export function rootOfPath(
  hashing: Hashing,
  leaf: TreeNode,
  position: number,
  path: readonly TreeNode[],
): TreeNode {
  let node = leaf
  path.forEach((sibling, level) => {
    const isRight = Math.floor(position / 2 ** level) % 2 === 1
    node = isRight ? hashNode(hashing, sibling, node) : hashNode(hashing, node, sibling)
  })
  return node
}

/** The occupied nodes of one level, sorted by index, packed: `count` rows of each array. */
export interface LevelNodes {
  count: number
  /** The node's index in its level (its leftmost position >> level). */
  index: Uint32Array
  /** 32 bytes a node. */
  hash: Uint8Array
  /** 16 bytes a node, big-endian. */
  usdt: Uint8Array
  hope: Uint8Array
}

export function allocateLevel(rows: number): LevelNodes {
  return {
    count: 0,
    index: new Uint32Array(rows),
    hash: new Uint8Array(rows * HASH_BYTES),
    usdt: new Uint8Array(rows * SUM_BYTES),
    hope: new Uint8Array(rows * SUM_BYTES),
  }
}

/** A copy of rows [from, to) of a level. */
export function sliceLevel(level: LevelNodes, from = 0, to = level.count): LevelNodes {
  return {
    count: to - from,
    index: level.index.slice(from, to),
    hash: level.hash.slice(from * HASH_BYTES, to * HASH_BYTES),
    usdt: level.usdt.slice(from * SUM_BYTES, to * SUM_BYTES),
    hope: level.hope.slice(from * SUM_BYTES, to * SUM_BYTES),
  }
}

/** Copies rows [from, to) of one level into another at row `at`. */
export function copyRows(
  source: LevelNodes,
  from: number,
  to: number,
  target: LevelNodes,
  at: number,
): void {
  target.index.set(source.index.subarray(from, to), at)
  target.hash.set(source.hash.subarray(from * HASH_BYTES, to * HASH_BYTES), at * HASH_BYTES)
  target.usdt.set(source.usdt.subarray(from * SUM_BYTES, to * SUM_BYTES), at * SUM_BYTES)
  target.hope.set(source.hope.subarray(from * SUM_BYTES, to * SUM_BYTES), at * SUM_BYTES)
}

/** Writes pads of one snapshot into packed arrays: one per (level, index), as `hashPad`. */
export class PadWriter {
  readonly #hashing: Hashing
  readonly #input: Uint8Array
  readonly #view: DataView
  readonly #at: number

  constructor(hashing: Hashing, snapshotId: bigint, padSalt: Uint8Array) {
    this.#hashing = hashing
    this.#at = PAD_TAG.length + SNAPSHOT_ID_BYTES
    this.#input = concat(PAD_TAG, encodeSnapshotId(snapshotId), new Uint8Array(5), padSalt)
    this.#view = new DataView(this.#input.buffer)
  }

  write(out: Uint8Array, offset: number, level: number, index: number): void {
    this.#input[this.#at] = level
    this.#view.setUint32(this.#at + 1, index)
    out.set(this.#hashing.sha256(this.#input), offset)
  }
}

const NODE_SIDE = HASH_BYTES + 2 * SUM_BYTES
const NODE_INPUT = NODE_TAG.length + 2 * NODE_SIDE

/**
 * Raises the occupied nodes of `level` to `level + 1` into `to`, which may be `from` itself (a
 * parent's row never comes after its left child's). A missing sibling is a pad with sum 0.
 * Throws a RangeError when a sum reaches 2^127.
 */
export function raiseLevel(
  hashing: Hashing,
  pads: PadWriter,
  level: number,
  from: LevelNodes,
  to: LevelNodes,
): void {
  const input = new Uint8Array(NODE_INPUT)
  input.set(NODE_TAG)
  const left = NODE_TAG.length
  const right = left + NODE_SIDE
  let w = 0
  for (let i = 0; i < from.count;) {
    const index = from.index[i]!
    const parent = index >>> 1
    const paired = index % 2 === 0 && i + 1 < from.count && from.index[i + 1] === index + 1
    const even = index % 2 === 0
    writeSide(input, left, from, even ? i : -1, pads, level, parent * 2)
    writeSide(input, right, from, even ? (paired ? i + 1 : -1) : i, pads, level, parent * 2 + 1)
    to.index[w] = parent
    to.hash.set(hashing.sha256(input), w * HASH_BYTES)
    addSums(input, left + HASH_BYTES, right + HASH_BYTES, to.usdt, w * SUM_BYTES)
    addSums(
      input,
      left + HASH_BYTES + SUM_BYTES,
      right + HASH_BYTES + SUM_BYTES,
      to.hope,
      w * SUM_BYTES,
    )
    w += 1
    i += paired ? 2 : 1
  }
  to.count = w
}

const ZERO_SUMS = new Uint8Array(2 * SUM_BYTES)

/** Copies row `row` of a level (or, when -1, the pad of node `index` with sums 0) into `input`. */
function writeSide(
  input: Uint8Array,
  at: number,
  from: LevelNodes,
  row: number,
  pads: PadWriter,
  level: number,
  index: number,
): void {
  if (row < 0) {
    pads.write(input, at, level, index)
    input.set(ZERO_SUMS, at + HASH_BYTES)
    return
  }
  input.set(from.hash.subarray(row * HASH_BYTES, (row + 1) * HASH_BYTES), at)
  input.set(from.usdt.subarray(row * SUM_BYTES, (row + 1) * SUM_BYTES), at + HASH_BYTES)
  input.set(from.hope.subarray(row * SUM_BYTES, (row + 1) * SUM_BYTES), at + HASH_BYTES + SUM_BYTES)
}

/** out[o..o+16) = input[a..a+16) + input[b..b+16), big-endian; refuses a sum ≥ 2^127. */
function addSums(input: Uint8Array, a: number, b: number, out: Uint8Array, o: number): void {
  let carry = 0
  for (let j = SUM_BYTES - 1; j >= 0; j--) {
    const s = input[a + j]! + input[b + j]! + carry
    out[o + j] = s & 0xff
    carry = s >>> 8
  }
  if (carry !== 0 || out[o]! >= 0x80) throw new RangeError('a subtree sum reached 2^127')
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
