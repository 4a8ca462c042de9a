import { useTranslation } from 'react-i18next'
import { explorerTxLink } from '../api/deposit-address.ts'
import { CopyButton } from './copy-button.tsx'
import { mask } from '../format/mask.ts'
import './tx-hash.css'

/**
 * A transaction hash, masked 6+6, with a copy button and, when an explorer is configured
 * (`explorerTxUrl` of `userAccount/getAddress`), a link to its page.
 */
export function TxHash({
  hash,
  explorerTxUrl,
  testId,
}: {
  hash: string
  explorerTxUrl: string | undefined
  testId?: string
}) {
  const { t } = useTranslation()
  const link = explorerTxLink(explorerTxUrl, hash)
  return (
    <span className="tx-hash">
      <span className="tx-hash__value" title={hash} data-testid={testId}>
        {mask(hash)}
      </span>
      <CopyButton text={hash} testId={testId && `${testId}-copy`} />
      {link && (
        <a
          className="tx-hash__link"
          href={link}
          target="_blank"
          rel="noopener noreferrer"
          data-testid={testId && `${testId}-explorer`}
        >
          {t('common.explorer')}
        </a>
      )}
    </span>
  )
}
