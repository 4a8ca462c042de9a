import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { copyText } from '../lib/ui/clipboard.ts'
import { LangSelect } from '../lib/ui/lang-select.tsx'
import { walletLinks } from '../lib/wallet/deep-links.ts'
import './wallet-help.css'

/** Wide screens are computers: the QR code lets a phone's wallet open the page. */
const WIDE_QUERY = '(min-width: 768px)'

function useWide(): boolean {
  const [wide, setWide] = useState(() => window.matchMedia?.(WIDE_QUERY).matches ?? false)
  useEffect(() => {
    const query = window.matchMedia?.(WIDE_QUERY)
    if (!query) return
    const follow = () => setWide(query.matches)
    query.addEventListener('change', follow)
    return () => query.removeEventListener('change', follow)
  }, [])
  return wide
}

function PageQr({ link }: { link: string }) {
  const [image, setImage] = useState<string | null>(null)
  useEffect(() => {
    let active = true
    void import('qrcode')
      .then(({ toDataURL }) => toDataURL(link, { margin: 1, width: 320 }))
      .then((url) => active && setImage(url))
      .catch((error: unknown) => console.error(error))
    return () => {
      active = false
    }
  }, [link])
  if (!image) return null
  return <img className="no-wallet__qr" src={image} alt="" data-testid="no-wallet-qr" />
}

/**
 * The way on from "No wallet found": open the page in a wallet app, copy its link, or scan
 * it from a computer's screen; and a language switch for who cannot read the current one.
 */
export default function NoWalletHelp() {
  const { t } = useTranslation()
  const wide = useWide()
  // On a phone the code is for another device's wallet to scan: shown when asked for.
  const [qrAsked, setQrAsked] = useState(false)
  const link = window.location.href
  return (
    <div className="no-wallet" data-testid="no-wallet-help">
      <button
        type="button"
        className="outline-button no-wallet__copy"
        onClick={() => void copyText(link)}
        data-testid="no-wallet-copy"
      >
        {t('guard.copyLink')}
      </button>
      {wide || qrAsked ? (
        <>
          <PageQr link={link} />
          <p className="no-wallet__scan">{t('guard.scanHint')}</p>
        </>
      ) : (
        <button
          type="button"
          className="outline-button no-wallet__copy no-wallet__show-qr"
          onClick={() => setQrAsked(true)}
          data-testid="no-wallet-show-qr"
        >
          {t('guard.showQr')}
        </button>
      )}
      <p className="no-wallet__open">{t('guard.openIn')}</p>
      <ul className="no-wallet__wallets">
        {walletLinks(link).map((wallet) => (
          <li key={wallet.id}>
            <a href={wallet.href} data-testid={`open-in-${wallet.id}`} rel="noreferrer">
              {wallet.name}
            </a>
          </li>
        ))}
      </ul>
      <LangSelect className="no-wallet__lang" />
    </div>
  )
}
