import Button from 'antd-mobile/es/components/button'
import Input from 'antd-mobile/es/components/input'
import Selector from 'antd-mobile/es/components/selector'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, useLocation } from 'react-router'
import { LOCATIONS } from '@hope/api'
import { useFirstRead } from '../../lib/api/first-read.ts'
import { ApiError, request, showRequestError } from '../../lib/api/request.ts'
import { mask } from '../../lib/format/mask.ts'
import { selectSignedIn, useSession } from '../../lib/store.ts'
import { showToast } from '../../lib/ui/toast.ts'
import { inviterOptions, isUnknownInviter } from './inviter.ts'
import { useRegister } from './use-register.ts'
import { LangSelect } from '../../lib/ui/lang-select.tsx'
import './invite.css'

const PARTITIONS = { 1: 'left', 2: 'central', 3: 'right' } as const

/**
 * A typed invitation code is checked before the wallet is asked to sign: a mistyped one is said
 * (the server's words) and nothing is signed. Without an answer the registration goes ahead; it
 * checks the code again.
 */
async function checkCode(invitationCode: string): Promise<boolean> {
  if (!invitationCode) return true
  try {
    await request('user/checkInvitationCode', { invitationCode }, { hideToast: true })
    return true
  } catch (error) {
    if (!(error instanceof ApiError) || error.reason !== 'invitation_code_unknown') return true
    showRequestError(error)
    return false
  }
}

export function InvitePage() {
  const { t } = useTranslation(['translation', 'invite'])
  const address = useSession((s) => s.address)
  const pusername = useSession((s) => s.pusername)
  const location = useSession((s) => s.location)
  const setLocation = useSession((s) => s.setLocation)
  const signedIn = useSession(selectSignedIn)
  const inviter = useFirstRead(inviterOptions(pusername))
  const [code, setCode] = useState('')
  const register = useRegister()
  const [registering, setRegistering] = useState(false)
  /** The server refused the link's inviter when registering (it was known when checked). */
  const [inviterRefused, setInviterRefused] = useState(false)

  const inviterInvalid = inviter.isError || inviterRefused
  const inviterValid = !!pusername && !inviterInvalid

  // A refused inviter is said while the link that named it is open; once the user leaves that
  // link (the same screen without it), it is gone, and only the invitation code is asked for.
  const { search } = useLocation()
  const linked = new URLSearchParams(search).get('pusername')
  const [cameWithLink] = useState(linked !== null)
  useEffect(() => {
    if (cameWithLink && linked === null && inviterInvalid && pusername)
      useSession.getState().dropPusername(pusername)
  }, [cameWithLink, linked, inviterInvalid, pusername])

  // Registered (here or by the guard's login): the app starts at home.
  if (signedIn) return <Navigate to="/" replace />

  const submit = () => {
    if (!address) {
      showToast(t('invite:noAddress'))
      return
    }
    const invitationCode = code.trim()
    if (!inviterValid && !invitationCode) {
      showToast(t('invite:enterCode'))
      return
    }
    setRegistering(true)
    // A failure is already on screen (the code's refusal, the sign toast or the request's); on
    // success the session changes and this screen goes home.
    void checkCode(inviterValid ? '' : invitationCode)
      .then((known) =>
        known
          ? register({
              address,
              location,
              ...(inviterValid && pusername ? { pusername } : { invitationCode }),
            })
          : undefined,
      )
      .then((outcome) => {
        if (!outcome) return
        if (outcome.ok || !pusername || !isUnknownInviter(outcome.cause)) return
        useSession.getState().forgetPusername(pusername)
        setInviterRefused(true)
      })
      .finally(() => setRegistering(false))
  }

  return (
    <div className="invite" data-testid="invite-page">
      <header className="invite-hero">
        {/* Nobody has to register in a language they cannot read. */}
        <LangSelect className="invite-lang" />
        <div className="invite-logo" aria-hidden="true">
          H
        </div>
        <h1 className="invite-brand">{t('brand.name')}</h1>
        <p className="invite-slogan">{t('brand.slogan')}</p>
      </header>

      <section className="invite-card">
        <h2 className="invite-title">{t('invite:welcome')}</h2>
        <p className="invite-intro">{t('invite:intro')}</p>

        {pusername && (
          <div className="invite-field" data-testid="inviter">
            <span className="invite-label">{t('invite:invitedBy')}</span>
            <span className="invite-value invite-mono" data-testid="inviter-address">
              {mask(pusername)}
            </span>
            {inviter.isPending && <p className="invite-note">{t('invite:checkingInviter')}</p>}
            {inviterInvalid && (
              <p className="invite-note invite-note--warn" data-testid="inviter-invalid">
                {t('invite:inviterInvalid')}
              </p>
            )}
          </div>
        )}

        {!inviterValid && (
          <label className="invite-field">
            <span className="invite-label">{t('invite:codeLabel')}</span>
            <Input
              className="invite-input"
              value={code}
              onChange={setCode}
              aria-label={t('invite:codeLabel')}
              clearable
              maxLength={32}
              autoComplete="off"
              data-testid="invitation-code-input"
            />
          </label>
        )}

        <div className="invite-field">
          <span className="invite-label">{t('invite:partition')}</span>
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
              label: t(`invite:partitions.${PARTITIONS[value]}`),
            }))}
            data-testid="partition-selector"
          />
        </div>

        <div className="invite-field">
          <span className="invite-label">{t('invite:address')}</span>
          <span className="invite-value invite-mono" data-testid="wallet-address">
            {address ? mask(address) : t('invite:noAddress')}
          </span>
        </div>

        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          className="invite-submit"
          loading={registering}
          disabled={registering}
          onClick={submit}
          data-testid="register-button"
        >
          {t('invite:register')}
        </Button>
        <p className="invite-note invite-note--center">{t('invite:signNotice')}</p>
      </section>
    </div>
  )
}
