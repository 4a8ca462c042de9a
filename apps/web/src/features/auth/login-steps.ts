import type { LoginResult, RouteParams } from '@hope/api'
import {
  postWithLoginPair,
  type LoginPair,
  type PairOutcome,
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
  /** The server's Sign-In with Ethereum message to sign; the legacy message without it. */
  fetchMessage?: () => Promise<string>
  request: LoginRequest
  recover?: RecoverFn
  now?: () => number
}

export type LoginOutcome = PairOutcome<LoginResult>

/**
 * The spec's login steps (§4): reuse the cached signed pair for the address or sign
 * `HOPE Login<ms>` (checked on the client), keep the pair in session storage, post
 * `user/logining`. When the server answers `signature_expired` the pair is dropped and the
 * wallet signs again, once. The caller stores the token and shows any message.
 */
export function loginSteps(deps: LoginDeps): Promise<LoginOutcome> {
  return postWithLoginPair(deps, (pair) => postLogin(deps, pair))
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
