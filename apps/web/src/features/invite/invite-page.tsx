import { useMutation, useQuery } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import Input from 'antd-mobile/es/components/input'
import Selector from 'antd-mobile/es/components/selector'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate } from 'react-router'
import { LOCATIONS } from '@hope/api'
import { mask } from '../../lib/mask.ts'
import { request } from '../../lib/request.ts'
import { selectSignedIn, useSession } from '../../lib/store.ts'
import { showToast } from '../../lib/toast.ts'
import { useRegister } from './use-register.ts'
import './invite.css'

const PARTITIONS = { 1: 'left', 2: 'central', 3: 'right' } as const

/** The inviter from the link, checked with the registered call (no toast when unknown). */
function useInviter(pusername: string | null) {
  return useQuery({
    queryKey: ['inviter', pusername],
    queryFn: ({ signal }) =>
      request('user/getUserInfoByName', { userName: pusername ?? '' }, { hideToast: true, signal }),
    enabled: !!pusername,
    staleTime: Infinity,
  })
}

export function InvitePage() {
  const { t } = useTranslation()
  const address = useSession((s) => s.address)
  const pusername = useSession((s) => s.pusername)
  const location = useSession((s) => s.location)
  const setLocation = useSession((s) => s.setLocation)
  const signedIn = useSession(selectSignedIn)
  const inviter = useInviter(pusername)
  const [code, setCode] = useState('')
  const register = useRegister()
  const registerMutation = useMutation({ mutationFn: register })

  const inviterValid = !!pusername && !inviter.isError

  // Registered (here or by the guard's login): the app starts at home.
  if (signedIn) return <Navigate to="/" replace />

  const submit = () => {
    if (!address) {
      showToast(t('invite.noAddress'))
      return
    }
    const invitationCode = code.trim()
    if (!inviterValid && !invitationCode) {
      showToast(t('invite.enterCode'))
      return
    }
    registerMutation.mutate({
      address,
      location,
      ...(inviterValid && pusername ? { pusername } : { invitationCode }),
    })
  }

  return (
    <div className="invite" data-testid="invite-page">
      <header className="invite-hero">
        <div className="invite-logo" aria-hidden="true">
          H
        </div>
        <h1 className="invite-brand">{t('brand.name')}</h1>
        <p className="invite-slogan">{t('brand.slogan')}</p>
      </header>

      <section className="invite-card">
        <h2 className="invite-title">{t('invite.welcome')}</h2>
        <p className="invite-intro">{t('invite.intro')}</p>

        {pusername && (
          <div className="invite-field" data-testid="inviter">
            <span className="invite-label">{t('invite.invitedBy')}</span>
            <span className="invite-value invite-mono" data-testid="inviter-address">
              {mask(pusername)}
            </span>
            {inviter.isPending && <p className="invite-note">{t('invite.checkingInviter')}</p>}
            {inviter.isError && (
              <p className="invite-note invite-note--warn" data-testid="inviter-invalid">
                {t('invite.inviterInvalid')}
              </p>
            )}
          </div>
        )}

        {!inviterValid && (
          <label className="invite-field">
            <span className="invite-label">{t('invite.codeLabel')}</span>
            <Input
              className="invite-input"
              value={code}
              onChange={setCode}
              aria-label={t('invite.codeLabel')}
              clearable
              maxLength={32}
              autoComplete="off"
              data-testid="invitation-code-input"
            />
          </label>
        )}

        <div className="invite-field">
          <span className="invite-label">{t('invite.partition')}</span>
          <Selector
            className="invite-partitions"
            columns={3}
            showCheckMark={false}
            value={[location]}
            onChange={(values) => {
              const [next] = values
              if (next) setLocation(next)
            }}
            options={LOCATIONS.map((value) => ({
              value,
              label: t(`invite.partitions.${PARTITIONS[value]}`),
            }))}
            data-testid="partition-selector"
          />
        </div>

        <div className="invite-field">
          <span className="invite-label">{t('invite.address')}</span>
          <span className="invite-value invite-mono" data-testid="wallet-address">
            {address ? mask(address) : t('invite.noAddress')}
          </span>
        </div>

        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          className="invite-submit"
          loading={registerMutation.isPending}
          disabled={registerMutation.isPending}
          onClick={submit}
          data-testid="register-button"
        >
          {t('invite.register')}
        </Button>
        <p className="invite-note invite-note--center">{t('invite.signNotice')}</p>
      </section>
    </div>
  )
}
