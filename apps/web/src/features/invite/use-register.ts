import type { LoginResult } from '@hope/api'
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { request, showRequestError } from '../../lib/api/request.ts'
import { useSession } from '../../lib/store.ts'
import { showToast } from '../../lib/ui/toast.ts'
import type { PairOutcome } from '../../lib/wallet/login-pair.ts'

export interface RegisterInput {
  address: `0x${string}`
  location: number
  pusername?: string
  invitationCode?: string
}

/**
 * Registration: posts `user/register` with the signed login pair kept for the address (the one
 * a refused login or registration left, while the server takes it) or a fresh one, stores the
 * session. A failure is shown (the sign toast or the server's message) and resolved. The
 * signing code loads on the first registration: the screen shows without waiting for it.
 */
export function useRegister(): (input: RegisterInput) => Promise<PairOutcome<LoginResult>> {
  const { t } = useTranslation()
  return useCallback(
    async ({ address, location, pusername, invitationCode }: RegisterInput) => {
      const [{ postWithLoginPair }, { signWithWallet }] = await Promise.all([
        import('../../lib/wallet/login-pair.ts'),
        import('../../lib/wallet/sign.ts'),
      ])
      const outcome = await postWithLoginPair(
        {
          address,
          storage: window.sessionStorage,
          sign: (message) => signWithWallet(address, message),
          fetchMessage: async () =>
            (await request('user/loginMessage', { username: address }, { hideToast: true }))
              .message,
        },
        (pair) =>
          request(
            'user/register',
            {
              username: address,
              location,
              ...(pusername ? { pusername } : {}),
              ...(invitationCode ? { invitationCode } : {}),
              message: pair.message,
              signature: pair.signature,
            },
            { hideToast: true },
          ),
      )
      if (outcome.ok) {
        useSession.getState().signIn(outcome.result)
        return outcome
      }
      if (outcome.failure === 'sign') {
        if (outcome.cause) console.error(outcome.cause)
        showToast(t('auth.signFailed'), 'fail')
      } else showRequestError(outcome.cause)
      return outcome
    },
    [t],
  )
}
