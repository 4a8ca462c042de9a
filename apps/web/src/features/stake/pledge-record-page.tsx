// `#/pledgeRecord` (`?tab=positions|pledges`). Test ids: pledge-record-page, the tabs
// pledge-tab-positions / pledge-tab-pledges, each section's note (pledge-record-note);
// positions: stake-position (see position-row.tsx) and the list's pledge-positions-skeleton /
// -empty / -retry / -more-retry; pledges: pledge-item (pledge-item-amount,
// pledge-item-released, pledge-item-convertible, pledge-item-rate, pledge-item-status) and the
// list's pledge-record-skeleton / -empty / -retry / -more-retry.
import { normalizeLang, type PledgeItem } from '@hope/api'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { formatDateTime, formatMoney, formatNumber, ratePercent } from '../../lib/format/format.ts'
import { PillTabs } from '../../lib/ui/pill-tabs.tsx'
import { RecordPages, useRecordItems } from '../../lib/ui/record-pages.tsx'
import { RecordHead } from '../../lib/ui/status-tag.tsx'
import { myPledgesOptions } from './api/my-pledges.ts'
import { myStakesOptions } from './api/my-stakes.ts'
import { PositionRow } from './position-row.tsx'
import { pledgeTone } from './stake.rules.ts'
import { Facts } from '../../lib/ui/figures.tsx'

const TABS = ['positions', 'pledges'] as const
type Tab = (typeof TABS)[number]

function PledgeRow({ item }: { item: PledgeItem }) {
  const { t, i18n } = useTranslation(['game', 'translation'])
  const lang = normalizeLang(i18n.language)
  const hope = (value: string) => `${formatMoney(value, lang)} HOPE`
  return (
    <li className="record" data-testid="pledge-item">
      <RecordHead
        amount={hope(item.amount)}
        amountTestId="pledge-item-amount"
        tone={pledgeTone(item)}
        statusTestId="pledge-item-status"
      >
        {item.redeemed ? t('pledges.redeemed') : t('pledges.notRedeemed')}
      </RecordHead>
      <Facts
        className="record__rows"
        facts={[
          [t('pledges.released'), hope(item.released), 'pledge-item-released'],
          [t('pledges.convertible'), hope(item.convertible), 'pledge-item-convertible'],
          [
            t('pledges.releaseRate'),
            t('stake.percentPerDay', { rate: formatNumber(ratePercent(item.releaseRate), lang) }),
            'pledge-item-rate',
          ],
        ]}
      />
      <p className="record__date">{formatDateTime(item.createdAt, lang)}</p>
    </li>
  )
}

/** The consensus positions: each entry's USDT, its HOPE, what it released against its cap. */
function Positions() {
  const { t } = useTranslation(['game', 'translation'])
  const records = useInfiniteQuery(myStakesOptions())
  const items = useRecordItems(records)
  return (
    <RecordPages
      query={records}
      items={items}
      empty={t('positions.empty')}
      testId="pledge-positions"
    >
      {(position) => <PositionRow key={position.id} position={position} />}
    </RecordPages>
  )
}

/** The pledged parts of redemptions, released back to the community account day by day. */
function Pledges() {
  const { t } = useTranslation(['game', 'translation'])
  const records = useInfiniteQuery(myPledgesOptions())
  const items = useRecordItems(records)
  return (
    <RecordPages query={records} items={items} empty={t('pledges.empty')} testId="pledge-record">
      {(item) => <PledgeRow key={item.id} item={item} />}
    </RecordPages>
  )
}

/**
 * `#/pledgeRecord`: what the user has staked, in two named parts: consensus positions (USDT
 * entered, HOPE bought, released up to the cap, out or not) and redemption pledges (the
 * pledged share of each redemption, released back day by day until redeemed).
 */
export function PledgeRecordPage() {
  const { t } = useTranslation(['game', 'translation'])
  const { pathname, search } = useLocation()
  const navigate = useNavigate()
  const asked = new URLSearchParams(search).get('tab')
  const tab: Tab = asked === 'pledges' ? 'pledges' : 'positions'
  return (
    <div className="records" data-testid="pledge-record-page">
      <PillTabs
        tabs={TABS.map((key) => ({ key, label: t(`pledges.tabs.${key}`) }))}
        selected={tab}
        onSelect={(key) => void navigate({ pathname, search: `?tab=${key}` }, { replace: true })}
        testId="pledge-tab"
      />
      <p className="record-note" data-testid="pledge-record-note">
        {t(`pledges.notes.${tab}`)}
      </p>
      {tab === 'positions' ? <Positions /> : <Pledges />}
    </div>
  )
}
