// `#/pledgeRecord`. Test ids: pledge-record-page, pledge-item (pledge-item-amount,
// pledge-item-released, pledge-item-convertible, pledge-item-rate, pledge-item-status) and the
// list's pledge-record-skeleton / -empty / -retry / -more-retry.
import { normalizeLang, type PledgeItem } from '@hope/api'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { formatDateTime, formatMoney, ratePercent } from '../../lib/format.ts'
import { RecordPages } from '../../lib/record-pages.tsx'
import { StatusTag } from '../../lib/status-tag.tsx'
import { myPledgesOptions } from './api/my-pledges.ts'
import { pledgeTone } from './stake.rules.ts'

function PledgeRow({ item }: { item: PledgeItem }) {
  const { t, i18n } = useTranslation(['game', 'translation'])
  const lang = normalizeLang(i18n.language)
  const hope = (value: string) => `${formatMoney(value, lang)} HOPE`
  return (
    <li className="record" data-testid="pledge-item">
      <div className="record__head">
        <span className="record__amount" data-testid="pledge-item-amount">
          {hope(item.amount)}
        </span>
        <StatusTag tone={pledgeTone(item)} testId="pledge-item-status">
          {item.redeemed ? t('pledges.redeemed') : t('pledges.notRedeemed')}
        </StatusTag>
      </div>
      <dl className="record__rows">
        <div>
          <dt>{t('pledges.released')}</dt>
          <dd data-testid="pledge-item-released">{hope(item.released)}</dd>
        </div>
        <div>
          <dt>{t('pledges.convertible')}</dt>
          <dd data-testid="pledge-item-convertible">{hope(item.convertible)}</dd>
        </div>
        <div>
          <dt>{t('pledges.releaseRate')}</dt>
          <dd data-testid="pledge-item-rate">
            {t('stake.percentPerDay', { rate: ratePercent(item.releaseRate) })}
          </dd>
        </div>
      </dl>
      <p className="record__date">{formatDateTime(item.createdAt, lang)}</p>
    </li>
  )
}

/**
 * `#/pledgeRecord`: the pledged parts of the user's redemptions, newest first, each released
 * back to the community account day by day until it is redeemed.
 */
export function PledgeRecordPage() {
  const { t } = useTranslation(['game', 'translation'])
  const records = useInfiniteQuery(myPledgesOptions())
  const items = useMemo(
    () => records.data?.pages.flatMap((page) => page.list) ?? [],
    [records.data],
  )
  return (
    <div className="records" data-testid="pledge-record-page">
      <RecordPages query={records} items={items} empty={t('pledges.empty')} testId="pledge-record">
        {(item) => <PledgeRow key={item.id} item={item} />}
      </RecordPages>
    </div>
  )
}
