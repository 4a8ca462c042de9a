// `#/share`, invite friends. Test ids: screen-share, share-skeleton, share-retry, share-link,
// share-link-copy, share-code, share-code-copy, share-qr, share-poster-make, share-poster,
// share-poster-save, share-poster-failed.
import type { UserInfo } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { userInfoOptions } from '../../lib/api/user-info.ts'
import { CopyButton } from '../../lib/ui/copy-button.tsx'
import { useSession } from '../../lib/store.ts'
import { composePoster } from './poster.ts'
import { RetryButton } from '../../lib/ui/retry-button.tsx'
import './share.css'

/** The signed-in user's info; the guard's copy shows at once while a fresh one loads. */
function useMe() {
  const known = useSession((s) => s.userInfo)
  return useQuery({ ...userInfoOptions(), ...(known ? { placeholderData: known } : {}) })
}

/** The QR code of the invitation link, as an image (the qrcode module loads with this screen). */
function useQrImage(link: string | undefined) {
  const [src, setSrc] = useState<string | null>(null)
  useEffect(() => {
    if (!link) return
    let active = true
    void import('qrcode')
      .then(({ toDataURL }) => toDataURL(link, { margin: 1, width: 360 }))
      .then((url) => {
        if (active) setSrc(url)
      })
      .catch((error: unknown) => console.error(error))
    return () => {
      active = false
    }
  }, [link])
  return src
}

function Poster({ user }: { user: UserInfo }) {
  const { t } = useTranslation('share')
  const [state, setState] = useState<
    { phase: 'idle' | 'making' | 'failed' } | { phase: 'done'; src: string }
  >({ phase: 'idle' })
  const make = async () => {
    setState({ phase: 'making' })
    try {
      const src = await composePoster({
        link: user.invitationLink,
        code: user.referralCode,
        nickName: user.nickName,
        headline: t('poster.headline'),
        slogan: t('poster.slogan'),
        scan: t('poster.scan'),
        codeLabel: t('code'),
      })
      setState({ phase: 'done', src })
    } catch (error) {
      console.error(error)
      setState({ phase: 'failed' })
    }
  }
  const save = (src: string) => {
    const a = document.createElement('a')
    a.href = src
    a.download = `hope-invite-${user.referralCode}.png`
    document.body.append(a)
    a.click()
    a.remove()
  }
  return (
    <section className="card share-poster">
      <h2 className="share-title">{t('poster.title')}</h2>
      {state.phase === 'done' ? (
        <>
          <img
            className="share-poster__image"
            src={state.src}
            width={750}
            height={1334}
            alt={t('poster.title')}
            data-testid="share-poster"
          />
          <p className="share-hint">{t('poster.hint')}</p>
          <Button
            block
            shape="rounded"
            color="primary"
            onClick={() => save(state.src)}
            data-testid="share-poster-save"
          >
            {t('poster.save')}
          </Button>
        </>
      ) : (
        <>
          <p className="share-hint">{t('poster.intro')}</p>
          {state.phase === 'failed' && (
            <p className="share-error" role="alert" data-testid="share-poster-failed">
              {t('poster.failed')}
            </p>
          )}
          <Button
            block
            shape="rounded"
            color="primary"
            loading={state.phase === 'making'}
            loadingText={t('poster.making')}
            onClick={() => void make()}
            data-testid="share-poster-make"
          >
            {t('poster.make')}
          </Button>
        </>
      )}
    </section>
  )
}

/** What there is to share, with its copy button: the code or the link. */
function ShareField({ name, label, text }: { name: 'code' | 'link'; label: string; text: string }) {
  return (
    <div className="share-field" role="group" aria-label={label}>
      <div className="share-field__head">
        <span className="share-label">{label}</span>
        <CopyButton text={text} testId={`share-${name}-copy`} />
      </div>
      <p className={`share-${name}`} data-testid={`share-${name}`}>
        {text}
      </p>
    </div>
  )
}

function ShareContent({ user }: { user: UserInfo }) {
  const { t } = useTranslation('share')
  const qr = useQrImage(user.invitationLink)
  return (
    <>
      <section className="hero-card share-hero">
        <h2 className="share-hero__title">{t('hero.title')}</h2>
        <p className="share-hero__text">{t('hero.text')}</p>
        <div className="share-qr">
          {qr ? (
            <img src={qr} width={180} height={180} alt={t('qr')} data-testid="share-qr" />
          ) : (
            <span className="share-qr__placeholder" aria-busy="true" />
          )}
        </div>
        <p className="share-hero__note">{t('qrHint')}</p>
      </section>
      <section className="card share-fields">
        <ShareField name="code" label={t('code')} text={user.referralCode} />
        <ShareField name="link" label={t('link')} text={user.invitationLink} />
      </section>
      <Poster user={user} />
    </>
  )
}

export function SharePage() {
  const me = useMe()
  return (
    <div className="share-screen" data-testid="screen-share">
      <Refreshable onRefresh={() => me.refetch().then(() => undefined)}>
        {me.data ? (
          <ShareContent user={me.data} />
        ) : me.isError ? (
          <RetryButton
            className="share-retry"
            onClick={() => void me.refetch()}
            data-testid="share-retry"
          />
        ) : (
          <section className="card" aria-busy="true" data-testid="share-skeleton">
            <Skeleton.Title animated />
            <Skeleton.Paragraph lineCount={4} animated />
          </section>
        )}
      </Refreshable>
    </div>
  )
}
