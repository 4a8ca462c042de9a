import { normalizeLang, type Recharge } from '@hope/api'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { depositAddressOptions } from '../../lib/api/deposit-address.ts'
import { formatDateTime, formatMoney } from '../../lib/format/format.ts'
import { RecordPages, useRecordItems } from '../../lib/ui/record-pages.tsx'
import { StatusTag } from '../../lib/ui/status-tag.tsx'
import { TxHash } from '../../lib/ui/tx-hash.tsx'
import { myRechargesOptions } from './api/my-recharges.ts'
import { RECHARGE_POLL_MS } from './api/recharge.ts'
import { RECHARGE_TONES } from './recharge.rules.ts'

const CURRENCY = 'USDT'

function RechargeRow({ recharge, explorerTxUrl }: { recharge: Recharge; explorerTxUrl?: string }) {
  const { t, i18n } = useTranslation(['chain', 'translation'])
  const lang = normalizeLang(i18n.language)
  return (
    <li className="record" data-testid="recharge-record-item">
      <div className="record__head">
        {recharge.amount === null ? (
          <span
            className="record__amount record__amount--muted"
            data-testid="recharge-record-amount"
          >
            {t('records.amountUnknown')}
          </span>
        ) : (
          <span className="record__amount" data-testid="recharge-record-amount">
            +{formatMoney(recharge.amount, lang)} {CURRENCY}
          </span>
        )}
        <StatusTag tone={RECHARGE_TONES[recharge.status]} testId="recharge-record-status">
          {t(`recharge.status.${recharge.status}`)}
        </StatusTag>
      </div>
      <dl className="record__rows">
        {recharge.status === 'on_chain' && (
          <div>
            <dt>{t('records.confirmations')}</dt>
            <dd data-testid="recharge-record-confirmations">
              {Math.min(recharge.confirmations, recharge.confirmationsRequired)}/
              {recharge.confirmationsRequired}
            </dd>
          </div>
        )}
        <div>
          <dt>{t('records.txHash')}</dt>
          <dd>
            <TxHash
              hash={recharge.txHash}
              explorerTxUrl={explorerTxUrl}
              testId="recharge-record-hash"
            />
          </dd>
        </div>
      </dl>
      <p className="record__date">{formatDateTime(recharge.createdAt, lang)}</p>
    </li>
  )
}

/** `#/rechargeRecord`: every recharge, credited or on its way; those on their way update themselves. */
export function RechargeRecordPage() {
  const { t } = useTranslation(['chain', 'translation'])
  const deposit = useQuery(depositAddressOptions())
  const records = useInfiniteQuery({
    ...myRechargesOptions(),
    refetchInterval: (query) =>
      !query.state.error &&
      query.state.data?.pages.some((page) => page.list.some((r) => r.status === 'on_chain'))
        ? RECHARGE_POLL_MS
        : false,
  })
  const items = useRecordItems(records)
  return (
    <div className="records" data-testid="recharge-record-page">
      <RecordPages
        query={records}
        items={items}
        empty={t('records.empty')}
        testId="recharge-record"
      >
        {(recharge) => (
          <RechargeRow
            key={recharge.txHash}
            recharge={recharge}
            explorerTxUrl={deposit.data?.explorerTxUrl}
          />
        )}
      </RecordPages>
    </div>
  )
}
