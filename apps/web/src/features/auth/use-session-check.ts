import { useCallback } from 'react'
import { request } from '../../lib/request.ts'
import { useSession } from '../../lib/store.ts'
import { checkSession, type SessionOutcome } from './session-check.ts'
import { useLogin } from './use-login.ts'

/** The guard's session check wired to the API and the session store. */
export function useSessionCheck(): () => Promise<SessionOutcome> {
  const logIn = useLogin()
  return useCallback(async () => {
    const { address, token, confirmToken, signOut } = useSession.getState()
    if (!address) return 'login-failed'
    return checkSession({
      address,
      token,
      getUserInfo: (opts) => request('user/getUserInfo', {}, opts),
      getPublicUser: (opts) => request('user/getUserInfoByName', { userName: address }, opts),
      keepSession: confirmToken,
      dropToken: signOut,
      logIn,
    })
  }, [logIn])
}
