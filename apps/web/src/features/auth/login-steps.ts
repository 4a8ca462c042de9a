import type { LoginResult, RouteParams } from '@hope/api'
import {
  createLoginPair,
  dropLoginPair,
  readLoginPair,
  saveLoginPair,
  type LoginPair,
  type PairStorage,
  type RecoverFn,
  type SignFn,
} from '../../lib/wallet/login-pair.ts'

type LoginRequest = (
  path: 'user/logining',
  params: RouteParams<'user/logining'>,
  opts: { hideToast: boolean },
) => Promise<LoginResult>

export interface LoginDeps {
  address: `0x${string}`
  location: number
  pusername: string | null
  /** Where signed pairs are kept between reloads: sessionStorage in the app. */
  storage: PairStorage
  sign: SignFn
  request: LoginRequest
  recover?: RecoverFn
  now?: () => number
}

export type LoginOutcome =
  | { ok: true; result: LoginResult }
  /** The wallet refused to sign, or the signature was not the address's: the spec's "signature failed". */
  | { ok: false; failure: 'sign'; cause?: unknown }
  /** The server refused the login; `cause` is the request's error (its toast was held back). */
  | { ok: false; failure: 'request'; cause: unknown }

function isSignatureExpired(error: unknown): boolean {
  return (
    !!error &&
    typeof error === 'object' &&
    'reason' in error &&
    error.reason === 'signature_expired'
  )
}

/**
 * The spec's login steps (§4): reuse the cached signed pair for the address or sign
 * `HOPE Login<ms>` (checked on the client), keep the pair in session storage, post
 * `user/logining`. When the server answers `signature_expired` the pair is dropped and the
 * wallet signs again, once. The caller stores the token and shows any message.
 */
export async function loginSteps(deps: LoginDeps): Promise<LoginOutcome> {
  const { address, storage } = deps
  let pair = readLoginPair(storage, address)
  let signedAgain = false
  for (;;) {
    if (!pair) {
      try {
        pair = await createLoginPair({
          address,
          sign: deps.sign,
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
      const result = await postLogin(deps, pair)
      return { ok: true, result }
    } catch (cause) {
      if (!isSignatureExpired(cause) || signedAgain) return { ok: false, failure: 'request', cause }
      dropLoginPair(storage, address)
      pair = null
      signedAgain = true
    }
  }
}

function postLogin(deps: LoginDeps, pair: LoginPair): Promise<LoginResult> {
  return deps.request(
    'user/logining',
    {
      username: deps.address,
      location: String(deps.location),
      ...(deps.pusername ? { pusername: deps.pusername } : {}),
      message: pair.message,
      signature: pair.signature,
    },
    { hideToast: true },
  )
}
