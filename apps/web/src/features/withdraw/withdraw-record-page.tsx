import { WITHDRAWAL_STATUSES, normalizeLang, type Withdrawal } from '@hope/api'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { depositAddressOptions } from '../../lib/api/deposit-address.ts'
import { CopyButton } from '../../lib/ui/copy-button.tsx'
import { showConfirm } from '../../lib/ui/dialog.ts'
import { formatDateTime, formatMoney } from '../../lib/format/format.ts'
import { mask } from '../../lib/format/mask.ts'
import { RecordPages, useRecordItems } from '../../lib/ui/record-pages.tsx'
import { RecordHead } from '../../lib/ui/status-tag.tsx'
import { showToast } from '../../lib/ui/toast.ts'
import { TxHash } from '../../lib/ui/tx-hash.tsx'
import { useCancelWithdrawal } from './api/cancel-withdrawal.ts'
import { myWithdrawalsOptions } from './api/my-withdrawals.ts'
import { canCancel, heldUntil, WITHDRAWAL_TONES } from './withdraw.rules.ts'

const CURRENCY = 'USDT'

function WithdrawalRow({
  withdrawal,
  explorerTxUrl,
  cancelling,
  onCancel,
}: {
  withdrawal: Withdrawal
  explorerTxUrl: string | undefined
  cancelling: boolean
  onCancel: (withdrawal: Withdrawal) => void
}) {
  const { t, i18n } = useTranslation(['chain', 'translation'])
  const lang = normalizeLang(i18n.language)
  const { status } = withdrawal
  const hold = heldUntil(withdrawal)
  return (
    <li className="record" data-testid="withdraw-record-item">
      <RecordHead
        amount={
          <>
            {formatMoney(withdrawal.amount, lang)} {CURRENCY}
          </>
        }
        amountTestId="withdraw-record-amount"
        tone={WITHDRAWAL_TONES[status]}
        statusTestId="withdraw-record-status"
      >
        {t(`withdraw.status.${WITHDRAWAL_STATUSES[status]}`)}
      </RecordHead>
      <dl className="record__rows">
        <div>
          <dt>{t('records.fee')}</dt>
          <dd data-testid="withdraw-record-fee">
            {formatMoney(withdrawal.fee, lang)} {CURRENCY}
          </dd>
        </div>
        <div>
          <dt>{t('records.address')}</dt>
          <dd>
            <span className="record__mono" data-testid="withdraw-record-address">
              {mask(withdrawal.address)}
            </span>
            <CopyButton text={withdrawal.address} testId="withdraw-record-address-copy" />
          </dd>
        </div>
        {withdrawal.txHash && (
          <div>
            <dt>{t('records.txHash')}</dt>
            <dd>
              <TxHash
                hash={withdrawal.txHash}
                explorerTxUrl={explorerTxUrl}
                testId="withdraw-record-hash"
              />
            </dd>
          </div>
        )}
      </dl>
      {status === 3 && withdrawal.reviewReason && (
        <p className="record__reason" data-testid="withdraw-record-reason">
          {t('records.reviewReason')}: {withdrawal.reviewReason}
        </p>
      )}
      {hold && (
        <p className="hold-note record__hold" data-testid="withdraw-record-hold">
          {t('records.onHold', { time: formatDateTime(hold, lang) })}
        </p>
      )}
      <p className="record__date">{formatDateTime(withdrawal.createdAt, lang)}</p>
      {canCancel(withdrawal) && (
        <div className="record__actions">
          <button
            type="button"
            className="record__cancel pill"
            disabled={cancelling}
            onClick={() => onCancel(withdrawal)}
            data-testid="withdraw-cancel"
          >
            {t('records.cancel')}
          </button>
        </div>
      )}
    </li>
  )
}

/** `#/withdrawRecord`: the user's withdrawals, newest first; one waiting for review can be cancelled. */
export function WithdrawRecordPage() {
  const { t } = useTranslation(['chain', 'translation'])
  const deposit = useQuery(depositAddressOptions())
  const records = useInfiniteQuery(myWithdrawalsOptions())
  const items = useRecordItems(records)
  const cancel = useCancelWithdrawal({
    onSuccess: () => showToast(t('records.canceled'), 'success'),
  })

  const askCancel = async (withdrawal: Withdrawal) => {
    const confirmed = await showConfirm({
      title: t('records.cancelTitle'),
      content: t('records.cancelConfirm'),
      confirmText: t('records.cancel'),
      cancelText: t('records.keep'),
    })
    if (confirmed && !cancel.isPending) cancel.mutate(withdrawal.id)
  }

  return (
    <div className="records" data-testid="withdraw-record-page">
      <RecordPages
        query={records}
        items={items}
        empty={t('records.empty')}
        testId="withdraw-record"
      >
        {(withdrawal) => (
          <WithdrawalRow
            key={withdrawal.id}
            withdrawal={withdrawal}
            explorerTxUrl={deposit.data?.explorerTxUrl}
            cancelling={cancel.isPending && cancel.variables === withdrawal.id}
            onCancel={(w) => void askCancel(w)}
          />
        )}
      </RecordPages>
    </div>
  )
}
