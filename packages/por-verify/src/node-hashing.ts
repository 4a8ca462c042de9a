// Node's native SHA-256 (hardware-accelerated where the CPU has it), the same function as the
// pure one in encoding.ts; the server's builder uses it for speed. Node only.
import { createHmac, createSecretKey, hash, type KeyObject } from 'node:crypto'
import type { Hashing } from './encoding.ts'

// A key object per secret: making one on every HMAC costs more than the HMAC itself.
const keys = new WeakMap<Uint8Array, KeyObject>()
const keyOf = (key: Uint8Array) => {
  let object = keys.get(key)
  if (!object) keys.set(key, (object = createSecretKey(key)))
  return object
}

export const nodeHashing: Hashing = {
  sha256: (data) => hash('sha256', data, 'buffer'),
  hmacSha256: (key, data) => createHmac('sha256', keyOf(key)).update(data).digest(),
}
