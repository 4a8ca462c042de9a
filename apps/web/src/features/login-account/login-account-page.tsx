// `#/loginAccount`, login by account: which of the wallet's addresses signs in. Test ids:
// screen-login-account, login-account-skeleton, login-account-item (data-address,
// data-current), login-account-status, login-account-single, login-account-none.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { showConfirm } from '../../lib/ui/dialog.ts'
import { mask } from '../../lib/format/mask.ts'
import { request } from '../../lib/api/request.ts'
import { useSession } from '../../lib/store.ts'
import { UserAvatar } from '../../lib/ui/user-avatar.tsx'
import { injectedProvider, listAccounts, setPreferredAccount } from '../../lib/wallet/eip1193.ts'
import { dropLoginPair } from '../../lib/wallet/login-pair.ts'
import './login-account.css'

/** The wallet's addresses, each with the nickname it is registered under (null: not registered). */
function useWalletAccounts() {
  return useQuery({
    queryKey: ['wallet', 'accounts'],
    queryFn: async ({ signal }) => {
      const provider = injectedProvider()
      // An address the wallet gives twice (in two spellings) is one row.
      const addresses = [...new Set(provider ? await listAccounts(provider) : [])]
      return Promise.all(
        addresses.map(async (address) => ({
          address,
          user: await request(
            'user/lookup',
            { userName: address },
            { hideToast: true, signal },
          ).catch(() => null),
        })),
      )
    },
    staleTime: 0,
  })
}

export function LoginAccountPage() {
  const { t } = useTranslation('login')
  const current = useSession((s) => s.address)
  const accounts = useWalletAccounts()
  const queryClient = useQueryClient()
  const navigate = useNavigate()

  const choose = async (address: string) => {
    const confirmed = await showConfirm({
      title: t('confirmTitle'),
      content: t('confirmText', { address: mask(address) }),
      confirmText: t('confirm'),
      cancelText: t('common.cancel', { ns: 'translation' }),
    })
    if (!confirmed) return
    await request('user/logout', {}, { hideToast: true }).catch(() => undefined)
    if (current) dropLoginPair(window.sessionStorage, current)
    setPreferredAccount(address)
    const session = useSession.getState()
    session.signOut()
    // The guard sees a new address without a token: it signs in with that one.
    session.setAddress(address)
    queryClient.clear()
    void navigate('/', { replace: true })
  }

  const list = accounts.data
  return (
    <div className="login-account" data-testid="screen-login-account">
      <p className="login-account__intro">{t('intro')}</p>
      {!list ? (
        <section className="card" aria-busy="true" data-testid="login-account-skeleton">
          <Skeleton.Paragraph lineCount={3} animated />
        </section>
      ) : list.length === 0 ? (
        <p className="login-account__hint" data-testid="login-account-none">
          {t('none')}
        </p>
      ) : (
        <ul className="login-account__list">
          {list.map(({ address, user }) => {
            const isCurrent = address === current
            return (
              <li key={address}>
                <button
                  type="button"
                  className="card login-account__item"
                  disabled={isCurrent}
                  aria-current={isCurrent}
                  onClick={() => void choose(address)}
                  data-testid="login-account-item"
                  data-address={address}
                  data-current={isCurrent}
                >
                  <UserAvatar
                    user={{
                      userName: address,
                      nickName: user?.nickName ?? '',
                      image: user?.image ?? '',
                    }}
                    size="2.5rem"
                  />
                  {/* The address once: under the nickname, or alone when there is none. */}
                  <span className="login-account__who">
                    {user?.nickName ? (
                      <>
                        <strong>{user.nickName}</strong>
                        <span className="login-account__address">{mask(address)}</span>
                      </>
                    ) : (
                      <strong className="login-account__address">{mask(address)}</strong>
                    )}
                  </span>
                  <span
                    className={`login-account__status${isCurrent ? ' is-current' : ''}${user ? '' : ' is-new'}`}
                    data-testid="login-account-status"
                  >
                    {isCurrent ? t('current') : user ? t('registered') : t('unregistered')}
                  </span>
                </button>
              </li>
            )
          })}
        </ul>
      )}
      {list?.length === 1 && (
        <p className="login-account__hint" data-testid="login-account-single">
          {t('single')}
        </p>
      )}
    </div>
  )
}
