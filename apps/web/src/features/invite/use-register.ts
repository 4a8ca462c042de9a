import type { LoginResult } from '@hope/api'
import { useCallback } from 'react'
import { useTranslation } from 'react-i18next'
import { request } from '../../lib/request.ts'
import { useSession } from '../../lib/store.ts'
import { showToast } from '../../lib/toast.ts'

export interface RegisterInput {
  address: `0x${string}`
  location: number
  pusername?: string
  invitationCode?: string
}

/**
 * Registration: signs a fresh login message (checked on the client like a login), posts
 * `user/register`, stores the session and caches the pair. Resolves null when it did not
 * register; the reason is already on screen (sign toast or the request's toast). The signing
 * code loads on the first registration: the screen shows without waiting for it.
 */
export function useRegister(): (input: RegisterInput) => Promise<LoginResult | null> {
  const { t } = useTranslation()
  return useCallback(
    async ({ address, location, pusername, invitationCode }: RegisterInput) => {
      const [{ createLoginPair, saveLoginPair }, { signWithWallet }] = await Promise.all([
        import('../../lib/wallet/login-pair.ts'),
        import('../../lib/wallet/sign.ts'),
      ])
      let pair
      try {
        pair = await createLoginPair({
          address,
          sign: (message) => signWithWallet(address, message),
        })
      } catch (error) {
        console.error(error)
      }
      if (!pair) {
        showToast(t('auth.signFailed'), 'fail')
        return null
      }
      let result: LoginResult
      try {
        result = await request('user/register', {
          username: address,
          location,
          ...(pusername ? { pusername } : {}),
          ...(invitationCode ? { invitationCode } : {}),
          message: pair.message,
          signature: pair.signature,
        })
      } catch {
        return null
      }
      saveLoginPair(window.sessionStorage, address, pair)
      useSession.getState().signIn(result)
      return result
    },
    [t],
  )
}
