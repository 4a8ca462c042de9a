import { buildLoginMessage } from '@hope/api'
import type { Hex } from 'viem'

/** A signed login message, reused from sessionStorage while the server accepts it (spec §4). */
export interface LoginPair {
  message: string
  signature: Hex
}

export type PairStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
export type SignFn = (message: string) => Promise<Hex>
export type RecoverFn = (message: string, signature: Hex) => Promise<string>

export const loginPairKey = (address: string): string => `hope:login:${address.toLowerCase()}`

export function readLoginPair(storage: PairStorage, address: string): LoginPair | null {
  try {
    const value: unknown = JSON.parse(storage.getItem(loginPairKey(address)) ?? 'null')
    if (
      value &&
      typeof value === 'object' &&
      'message' in value &&
      'signature' in value &&
      typeof value.message === 'string' &&
      typeof value.signature === 'string' &&
      value.signature.startsWith('0x')
    )
      return { message: value.message, signature: value.signature as Hex }
  } catch {
    // A damaged entry is as good as none.
  }
  return null
}

export function saveLoginPair(storage: PairStorage, address: string, pair: LoginPair): void {
  storage.setItem(loginPairKey(address), JSON.stringify(pair))
}

export function dropLoginPair(storage: PairStorage, address: string): void {
  storage.removeItem(loginPairKey(address))
}

const recoverWithViem: RecoverFn = async (message, signature) => {
  const { recoverSigner } = await import('./recover.ts')
  return recoverSigner(message, signature)
}

/**
 * Signs a fresh `HOPE Login<ms>` message and checks it on the client (spec §5): the recovered
 * signer must be the address, compared case-insensitively. Resolves null when it is not.
 * Rejects when the wallet refuses to sign.
 */
export async function createLoginPair(deps: {
  address: string
  sign: SignFn
  recover?: RecoverFn
  now?: () => number
}): Promise<LoginPair | null> {
  const { address, sign, recover = recoverWithViem, now = Date.now } = deps
  const message = buildLoginMessage(now())
  const signature = await sign(message)
  const signer = await recover(message, signature)
  if (signer.toLowerCase() !== address.toLowerCase()) return null
  return { message, signature }
}
