import type { PublicUser, UserInfo } from '@hope/api'

export type SessionOutcome = 'signed-in' | 'unregistered' | 'login-failed'

type Call<D> = (opts: { hideToast: true }) => Promise<D>

export interface SessionCheckDeps {
  address: string
  token: string | null
  getUserInfo: Call<UserInfo>
  /** The registered check (`user/lookup` for the address): null when not registered. */
  getPublicUser: Call<PublicUser | null>
  /** Keep the stored token (with the user info it answered, when the server answered). */
  keepSession(user: UserInfo | null): void
  /** The stored token is refused or belongs to another address. */
  dropToken(): void
  logIn(): Promise<boolean>
}

function errorCode(error: unknown): unknown {
  return error && typeof error === 'object' && 'code' in error ? error.code : undefined
}

/**
 * The guard's login flow (spec §4) once the address is known: a stored token that still
 * answers `getUserInfo` is kept without a new signature; else the registered check decides
 * between logging in and the invite page (a failed check counts as not registered).
 */
export async function checkSession(deps: SessionCheckDeps): Promise<SessionOutcome> {
  if (deps.token) {
    try {
      const user = await deps.getUserInfo({ hideToast: true })
      if (user.userName.toLowerCase() === deps.address.toLowerCase()) {
        deps.keepSession(user)
        return 'signed-in'
      }
      deps.dropToken()
    } catch (error) {
      if (errorCode(error) === 401) deps.dropToken()
      else {
        // The server did not answer; spec §6 treats a user with a token as logged in.
        console.error(error)
        deps.keepSession(null)
        return 'signed-in'
      }
    }
  }
  try {
    if ((await deps.getPublicUser({ hideToast: true })) === null) return 'unregistered'
  } catch {
    return 'unregistered'
  }
  return (await deps.logIn()) ? 'signed-in' : 'login-failed'
}
