import { useCallback } from 'react'
import { i18n } from '../../lib/i18n/i18n.ts'
import { request, showRequestError } from '../../lib/api/request.ts'
import { useSession } from '../../lib/store.ts'
import { showToast } from '../../lib/ui/toast.ts'
import { signWithWallet } from '../../lib/wallet/sign.ts'

/**
 * Runs the login steps with the real wallet, sessionStorage and API, stores the session on
 * success and shows the one message a failure deserves. Resolves whether it logged in.
 * The steps load on first use: a returning user whose token still answers never needs them.
 * The callback never changes (a language switch must not restart the guard's login).
 */
export function useLogin(): () => Promise<boolean> {
  return useCallback(async () => {
    const { address, location, pusername, signIn } = useSession.getState()
    if (!address) return false
    const { loginSteps } = await import('./login-steps.ts')
    const outcome = await loginSteps({
      address,
      location,
      pusername,
      storage: window.sessionStorage,
      sign: (message) => signWithWallet(address, message),
      fetchMessage: async () =>
        (await request('user/loginMessage', { username: address }, { hideToast: true })).message,
      request,
    })
    if (outcome.ok) {
      signIn(outcome.result)
      return true
    }
    if (outcome.failure === 'sign') {
      if (outcome.cause) console.error(outcome.cause)
      showToast(i18n.t('auth.signFailed'), 'fail')
    } else showRequestError(outcome.cause)
    return false
  }, [])
}
