// The proof file a user downloads and the verifier reads: JSON, amounts as decimal strings of
// integers at the currency's scale (USDT 6, HOPE 18). The parser is strict: an unknown field, a
// missing one, a malformed value or an over-long list is refused, with the path of the fault.
import type { SnapshotTree } from './build.ts'
import { HASH_BYTES, isHex, MAX_PARTS, SALT_BYTES, TREE_HEIGHT } from './encoding.ts'

export const PROOF_VERSION = 1
/** More reserve addresses than this is refused (HOPE has a deposit and a hot wallet). */
export const MAX_RESERVES = 16
const MAX_MESSAGE_CHARS = 1000
/** A decimal amount: at most 78 digits (a uint256), no sign, no leading zeros. */
const AMOUNT = /^(0|[1-9][0-9]{0,77})$/
const INTEGER_ID = /^(0|[1-9][0-9]{0,19})$/

type Hex = `0x${string}`

/** One sibling on a path: its hash and the sums under it. */
export interface PathNode {
  hash: Hex
  usdt: string
  hope: string
}

/** One part of a user's balance: a leaf of the tree, with its path to the root. */
export interface ProofPart {
  part: number
  position: number
  salt: Hex
  usdt: string
  hope: string
  /** Siblings from the leaf's level upwards: exactly the tree's height of them. */
  path: PathNode[]
}

/** A reserve address's one-off ownership statement (EIP-191 personal_sign). */
export interface ReserveSignature {
  address: Hex
  message: string
  signature: Hex
}

export interface ProofFile {
  version: typeof PROOF_VERSION
  /** u64 as a decimal string. */
  snapshotId: string
  chainId: number
  /** The PorRegistry contract the root is anchored in. */
  registry: Hex
  /** The USDT token whose balances are the reserves. */
  token: Hex
  /** Block B: balances and reserves are read at it. */
  blockNumber: string
  root: Hex
  /** Total liabilities: the root's sums. */
  totals: { usdt: string; hope: string }
  address: Hex
  /** The user's balance in HOPE's books at block B. */
  balance: { usdt: string; hope: string }
  parts: ProofPart[]
  reserves: ReserveSignature[]
}

/**
 * The message a reserve address signs once. It names the address, the chain, the registry and
 * the token,
 * so a signature made for anything else (or for another platform) cannot be shown as HOPE's.
 */
export function reserveOwnershipMessage(input: {
  address: string
  chainId: number
  registry: string
  token: string
}): string {
  return [
    'HOPE proof of reserves',
    `The address ${input.address.toLowerCase()} holds funds that HOPE owes to its users.`,
    `Chain: ${input.chainId}`,
    `Registry: ${input.registry.toLowerCase()}`,
    `Token: ${input.token.toLowerCase()}`,
  ].join('\n')
}

/** What a proof file carries besides the tree: where the root is anchored, and the reserves. */
export interface ProofContext {
  chainId: number
  registry: Hex
  token: Hex
  blockNumber: bigint
  reserves: ReserveSignature[]
}

/** The proof file of one address, or undefined when the address is not in the tree. */
export function createProofFile(
  tree: SnapshotTree,
  context: ProofContext,
  address: string,
): ProofFile | undefined {
  const parts = tree.partsFor(address)
  const balance = tree.balanceOf(address)
  if (!parts || !balance) return undefined
  const { totals } = tree
  return {
    version: PROOF_VERSION,
    snapshotId: tree.snapshotId.toString(),
    chainId: context.chainId,
    registry: context.registry,
    token: context.token,
    blockNumber: context.blockNumber.toString(),
    root: tree.root,
    totals: { usdt: totals.usdt.toString(), hope: totals.hope.toString() },
    address: address.toLowerCase() as Hex,
    balance: { usdt: balance.usdt.toString(), hope: balance.hope.toString() },
    parts,
    reserves: context.reserves,
  }
}

export type ParseResult = { ok: true; proof: ProofFile } | { ok: false; error: string }

class ProofFormatError extends Error {}

/** Parses a proof file's JSON value. `height` is for tests with smaller trees. */
export function parseProofFile(value: unknown, options: { height?: number } = {}): ParseResult {
  const height = options.height ?? TREE_HEIGHT
  try {
    return { ok: true, proof: readProof(value, height) }
  } catch (error) {
    if (error instanceof ProofFormatError) return { ok: false, error: error.message }
    throw error
  }
}

function readProof(value: unknown, height: number): ProofFile {
  const o = object(value, '$', [
    'version',
    'snapshotId',
    'chainId',
    'registry',
    'token',
    'blockNumber',
    'root',
    'totals',
    'address',
    'balance',
    'parts',
    'reserves',
  ])
  if (o.version !== PROOF_VERSION) fail('$.version', `expected ${PROOF_VERSION}`)
  return {
    version: PROOF_VERSION,
    snapshotId: u64(o.snapshotId, '$.snapshotId'),
    chainId: integer(o.chainId, '$.chainId', 1, Number.MAX_SAFE_INTEGER),
    registry: hex(o.registry, '$.registry', 20),
    token: hex(o.token, '$.token', 20),
    blockNumber: u64(o.blockNumber, '$.blockNumber'),
    root: hex(o.root, '$.root', HASH_BYTES),
    totals: sums(o.totals, '$.totals'),
    address: hex(o.address, '$.address', 20),
    balance: sums(o.balance, '$.balance'),
    parts: list(o.parts, '$.parts', 1, MAX_PARTS).map((p, i) =>
      readPart(p, `$.parts[${i}]`, height),
    ),
    reserves: list(o.reserves, '$.reserves', 1, MAX_RESERVES).map((r, i) =>
      readReserve(r, `$.reserves[${i}]`),
    ),
  }
}

function readPart(value: unknown, at: string, height: number): ProofPart {
  const o = object(value, at, ['part', 'position', 'salt', 'usdt', 'hope', 'path'])
  return {
    part: integer(o.part, `${at}.part`, 0, MAX_PARTS - 1),
    position: integer(o.position, `${at}.position`, 0, 2 ** height - 1),
    salt: hex(o.salt, `${at}.salt`, SALT_BYTES),
    usdt: amount(o.usdt, `${at}.usdt`),
    hope: amount(o.hope, `${at}.hope`),
    path: list(o.path, `${at}.path`, height, height).map((n, i) => {
      const node = object(n, `${at}.path[${i}]`, ['hash', 'usdt', 'hope'])
      return {
        hash: hex(node.hash, `${at}.path[${i}].hash`, HASH_BYTES),
        usdt: amount(node.usdt, `${at}.path[${i}].usdt`),
        hope: amount(node.hope, `${at}.path[${i}].hope`),
      }
    }),
  }
}

function readReserve(value: unknown, at: string): ReserveSignature {
  const o = object(value, at, ['address', 'message', 'signature'])
  if (typeof o.message !== 'string' || o.message.length > MAX_MESSAGE_CHARS)
    fail(`${at}.message`, `a string of at most ${MAX_MESSAGE_CHARS} characters`)
  return {
    address: hex(o.address, `${at}.address`, 20),
    message: o.message,
    signature: hex(o.signature, `${at}.signature`, 65),
  }
}

function sums(value: unknown, at: string) {
  const o = object(value, at, ['usdt', 'hope'])
  return { usdt: amount(o.usdt, `${at}.usdt`), hope: amount(o.hope, `${at}.hope`) }
}

function object(value: unknown, at: string, keys: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(at, 'an object')
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record))
    if (!keys.includes(key)) fail(`${at}.${key}`, 'no such field')
  for (const key of keys) if (!(key in record)) fail(`${at}.${key}`, 'missing')
  return record
}

function list(value: unknown, at: string, min: number, max: number): unknown[] {
  if (!Array.isArray(value)) fail(at, 'a list')
  if (value.length < min || value.length > max)
    fail(at, min === max ? `exactly ${min} items` : `${min} to ${max} items`)
  return value
}

function integer(value: unknown, at: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    fail(at, `an integer in ${min}..${max}`)
  return value
}

function amount(value: unknown, at: string): string {
  return pattern(value, at, AMOUNT, 'a non-negative integer as a decimal string')
}

function u64(value: unknown, at: string): string {
  const text = pattern(value, at, INTEGER_ID, 'a decimal u64')
  if (BigInt(text) >= 2n ** 64n) fail(at, 'a decimal u64')
  return text
}

function pattern(value: unknown, at: string, re: RegExp, what: string): string {
  if (typeof value !== 'string' || !re.test(value)) fail(at, what)
  return value
}

function hex(value: unknown, at: string, bytes: number): Hex {
  if (typeof value !== 'string' || !isHex(value, bytes)) fail(at, `${bytes} bytes of 0x-hex`)
  return value as Hex
}

function fail(at: string, expected: string): never {
  throw new ProofFormatError(`${at}: expected ${expected}`)
}
