import { buildLoginMessage } from '@hope/api'
import type { Hex } from 'viem'

/** A signed login message, reused from sessionStorage while the server accepts it (spec §4). */
export interface LoginPair {
  message: string
  signature: Hex
}

export type PairStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
export type SignFn = (message: string) => Promise<Hex>
/** The server's Sign-In with Ethereum message for the address (`user/loginMessage`). */
export type FetchMessageFn = () => Promise<string>
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
 * Signs a fresh login message and checks it on the client (spec §5): the recovered signer must
 * be the address, compared case-insensitively. The message is the server's Sign-In with
 * Ethereum message (EIP-4361: this site, the address, the chain, a single-use nonce) when
 * `fetchMessage` is given, else the spec's `HOPE Login<ms>`. Resolves null when the signer is
 * not the address. Rejects when the wallet refuses to sign.
 */
export async function createLoginPair(deps: {
  address: string
  sign: SignFn
  fetchMessage?: FetchMessageFn | undefined
  recover?: RecoverFn
  now?: () => number
}): Promise<LoginPair | null> {
  const { address, sign, recover = recoverWithViem, now = Date.now } = deps
  const message = deps.fetchMessage ? await deps.fetchMessage() : buildLoginMessage(now())
  const signature = await sign(message)
  const signer = await recover(message, signature)
  if (signer.toLowerCase() !== address.toLowerCase()) return null
  return { message, signature }
}

export type PairOutcome<T> =
  | { ok: true; result: T }
  /** The wallet refused to sign, or the signature was not the address's: the spec's "signature failed". */
  | { ok: false; failure: 'sign'; cause?: unknown }
  /** The server refused; `cause` is the request's error (its toast was held back). */
  | { ok: false; failure: 'request'; cause: unknown }

/** Reasons that say the pair itself is no good: it is dropped, and the next attempt signs anew. */
const SPENT_PAIR_REASONS: readonly unknown[] = [
  'signature_expired',
  'signature_invalid',
  'invalid_message',
  'message_time_invalid',
]

const reasonOf = (error: unknown): unknown =>
  error && typeof error === 'object' && 'reason' in error ? error.reason : undefined

/**
 * Posts a signed pair (spec §4): the one kept in `storage` for the address, else a fresh one,
 * kept there before posting so that a refused login or registration (unknown invitation code,
 * not registered yet) is retried without signing again. A pair the server finds expired is
 * dropped and signed again, once; one it finds invalid is dropped.
 */
export async function postWithLoginPair<T>(
  deps: {
    address: string
    storage: PairStorage
    sign: SignFn
    fetchMessage?: FetchMessageFn | undefined
    recover?: RecoverFn | undefined
    now?: (() => number) | undefined
  },
  post: (pair: LoginPair) => Promise<T>,
): Promise<PairOutcome<T>> {
  const { address, storage } = deps
  let pair = readLoginPair(storage, address)
  let signedAgain = false
  for (;;) {
    if (!pair) {
      // The server's message first: failing to get it is the server's failure, not a signature's.
      let message: string | undefined
      if (deps.fetchMessage)
        try {
          message = await deps.fetchMessage()
        } catch (cause) {
          return { ok: false, failure: 'request', cause }
        }
      try {
        pair = await createLoginPair({
          address,
          sign: deps.sign,
          ...(message !== undefined ? { fetchMessage: async () => message } : {}),
          ...(deps.recover ? { recover: deps.recover } : {}),
          ...(deps.now ? { now: deps.now } : {}),
        })
      } catch (cause) {
        return { ok: false, failure: 'sign', cause }
      }
      if (!pair) return { ok: false, failure: 'sign' }
      saveLoginPair(storage, address, pair)
    }
    try {
      return { ok: true, result: await post(pair) }
    } catch (cause) {
      const reason = reasonOf(cause)
      if (SPENT_PAIR_REASONS.includes(reason)) dropLoginPair(storage, address)
      if (reason !== 'signature_expired' || signedAgain)
        return { ok: false, failure: 'request', cause }
      pair = null
      signedAgain = true
    }
  }
}
