import { useTranslation } from 'react-i18next'
import type { FoundWallet } from '../lib/wallet/discover.ts'
import './wallet-help.css'

/** Several wallets announced themselves (EIP-6963): the user picks the one to sign in with. */
export default function WalletChooser({
  wallets,
  onPick,
}: {
  wallets: FoundWallet[]
  onPick: (wallet: FoundWallet) => void
}) {
  const { t } = useTranslation()
  return (
    <div className="guard-center wallet-chooser" data-testid="wallet-chooser">
      <h1 className="guard-notice__title">{t('guard.chooseWallet')}</h1>
      <p className="guard-notice__hint">{t('guard.chooseWalletHint')}</p>
      <ul className="wallet-chooser__list">
        {wallets.map((wallet, i) => {
          const name = wallet.info?.name ?? t('guard.browserWallet')
          return (
            <li key={wallet.info?.uuid ?? i}>
              <button
                type="button"
                className="wallet-chooser__item"
                onClick={() => onPick(wallet)}
                data-testid="wallet-option"
              >
                {wallet.info?.icon ? (
                  <img className="wallet-chooser__icon" src={wallet.info.icon} alt="" />
                ) : (
                  <span className="wallet-chooser__icon" aria-hidden="true" />
                )}
                <span className="wallet-chooser__name">{name}</span>
              </button>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
