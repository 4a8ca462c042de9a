// Fixed-width big-endian encodings of everything the tree hashes. A fixed width leaves no room
// for ambiguity between fields, and an unsigned width cannot carry a negative value.
import { sha256 as nobleSha256 } from '@noble/hashes/sha2'
import { hmac } from '@noble/hashes/hmac'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils'

/** Width of a sum (USDT or HOPE, at the currency's integer scale): u128. */
export const SUM_BYTES = 16
/** Every sum a verifier accepts is below this: two of them still add up inside a u128. */
export const SUM_BOUND = 2n ** 127n
export const ADDRESS_BYTES = 20
export const SNAPSHOT_ID_BYTES = 8
export const PART_BYTES = 1
export const POSITION_BYTES = 4
export const SALT_BYTES = 32
export const HASH_BYTES = 32
/** The tree's fixed height: 2^32 positions, whatever the number of users. */
export const TREE_HEIGHT = 32
/** A balance is split into at most this many parts. */
export const MAX_PARTS = 3

const ascii = (text: string) => new TextEncoder().encode(text)

/** Domain tags: a leaf, a node and a pad can never be mistaken for one another. */
export const LEAF_TAG = ascii('HOPE-PoL-leaf-v1')
export const NODE_TAG = ascii('HOPE-PoL-node-v1')
export const PAD_TAG = ascii('HOPE-PoL-pad-v1')

/** The two hash functions the scheme uses; the builder may pass a native SHA-256. */
export interface Hashing {
  sha256(data: Uint8Array): Uint8Array
  hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array
}

/** Pure-JavaScript SHA-256 (runs in the browser and in Node alike). */
export const nobleHashing: Hashing = {
  sha256: (data) => nobleSha256(data),
  hmacSha256: (key, data) => hmac(nobleSha256, key, data),
}

/** A u128 sum, refusing what a verifier refuses: negative values and values ≥ 2^127. */
export function encodeSum(value: bigint): Uint8Array {
  if (value < 0n || value >= SUM_BOUND) throw new RangeError(`sum out of range: ${value}`)
  const out = new Uint8Array(SUM_BYTES)
  writeSum(out, 0, value)
  return out
}

/** Writes a u128 at `offset` (the caller has checked the range). */
export function writeSum(out: Uint8Array, offset: number, value: bigint): void {
  const view = new DataView(out.buffer, out.byteOffset + offset, SUM_BYTES)
  view.setBigUint64(0, value >> 64n)
  view.setBigUint64(8, value & 0xffff_ffff_ffff_ffffn)
}

/** Reads a u128 at `offset`. */
export function readSum(bytes: Uint8Array, offset: number): bigint {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, SUM_BYTES)
  return (view.getBigUint64(0) << 64n) | view.getBigUint64(8)
}

/** A snapshot id: u64. */
export function encodeSnapshotId(id: bigint): Uint8Array {
  if (id < 0n || id >= 2n ** 64n) throw new RangeError(`snapshot id out of range: ${id}`)
  const out = new Uint8Array(SNAPSHOT_ID_BYTES)
  new DataView(out.buffer).setBigUint64(0, id)
  return out
}

/** A part number: u8. */
export function encodePart(part: number): Uint8Array {
  if (!Number.isInteger(part) || part < 0 || part > 0xff) throw new RangeError(`part: ${part}`)
  return Uint8Array.of(part)
}

/** A position or a node index: u32. */
export function encodePosition(position: number): Uint8Array {
  if (!Number.isInteger(position) || position < 0 || position > 0xffff_ffff)
    throw new RangeError(`position: ${position}`)
  const out = new Uint8Array(POSITION_BYTES)
  new DataView(out.buffer).setUint32(0, position)
  return out
}

/** An address: its 20 bytes (any letter case accepted). */
export function encodeAddress(address: string): Uint8Array {
  return fixedHex(address, ADDRESS_BYTES, 'address')
}

/** A salt: 32 bytes. */
export function encodeSalt(salt: string): Uint8Array {
  return fixedHex(salt, SALT_BYTES, 'salt')
}

/** A hash: 32 bytes. */
export function encodeHash(hash: string): Uint8Array {
  return fixedHex(hash, HASH_BYTES, 'hash')
}

/** `0x`-prefixed lowercase hex. */
export function toHex(bytes: Uint8Array): `0x${string}` {
  return `0x${bytesToHex(bytes)}`
}

export function isHex(text: string, bytes: number): boolean {
  return text.length === 2 + bytes * 2 && /^0x[0-9a-fA-F]*$/.test(text)
}

function fixedHex(text: string, bytes: number, what: string): Uint8Array {
  if (!isHex(text, bytes)) throw new RangeError(`${what}: expected ${bytes} bytes of 0x-hex`)
  return hexToBytes(text.slice(2))
}
