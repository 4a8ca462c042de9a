import type { UserInfo } from '@hope/api'
import { useCallback } from 'react'
import { request } from '../../lib/api/request.ts'
import { useSession } from '../../lib/store.ts'
import { checkSession, type SessionOutcome } from './session-check.ts'
import { useLogin } from './use-login.ts'

/** `getUserInfo` asked for the stored token as the page starts (see prefetchSession). */
let early: { token: string; answer: Promise<UserInfo> } | null = null

/**
 * Asks `getUserInfo` for the stored token at once, while the wallet is still asked for its
 * address: the guard's session check then takes this answer instead of asking again, and a
 * signed-in user's first screen renders one round trip sooner.
 */
export function prefetchSession(): void {
  const { token } = useSession.getState()
  if (!token) return
  const answer = request('user/getUserInfo', {}, { hideToast: true })
  // The session check reads the outcome; until then a failure is not unhandled.
  answer.catch(() => undefined)
  early = { token, answer }
}

/** The early answer for `token`, once; null when there is none for it. */
function takeEarly(token: string | null): Promise<UserInfo> | null {
  const found = early?.token === token ? early.answer : null
  early = null
  return found
}

/** The guard's session check wired to the API and the session store. */
export function useSessionCheck(): () => Promise<SessionOutcome> {
  const logIn = useLogin()
  return useCallback(async () => {
    const { address, token, confirmToken, signOut } = useSession.getState()
    if (!address) return 'login-failed'
    return checkSession({
      address,
      token,
      getUserInfo: (opts) => takeEarly(token) ?? request('user/getUserInfo', {}, opts),
      getPublicUser: (opts) => request('user/lookup', { userName: address }, opts),
      keepSession: confirmToken,
      dropToken: signOut,
      logIn,
    })
  }, [logIn])
}
