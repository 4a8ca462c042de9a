// `#/split`, the split account. Test ids: screen-split, split-figures-skeleton,
// split-figures-retry, split-locked, split-available, split-released, split-total, split-rate, split-vip-link, split-log-item (split-log-type, split-log-amount,
// split-log-balance) and the list's split-skeleton / split-empty / split-retry /
// split-more-retry.
import {
  LOG_TYPES,
  normalizeLang,
  type AccountLogEntry,
  type BalanceList,
  type VipInfo,
} from '@hope/api'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import { useTranslation } from 'react-i18next'
import { balanceOptions } from '../../lib/api/balance.ts'
import { formatDateTime, formatMoney, ratePercent } from '../../lib/format/format.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { RecordItems, useRecordItems } from '../../lib/ui/record-pages.tsx'
import { splitLogOptions } from './api/split-log.ts'
import { vipInfoOptions } from '../../lib/api/membership.ts'
import { QuerySection } from '../../lib/ui/query-section.tsx'
import { cutDecimals } from './vip.rules.ts'
import { NavButton } from '../../lib/ui/nav-button.tsx'
import '../../lib/ui/record-list.css'
import './vip.css'
import { Facts } from '../../lib/ui/figures.tsx'

/** HOPE shown with at most this many decimals. */
const HOPE_SHOWN_DECIMALS = 6

function useHope() {
  const { i18n } = useTranslation()
  const lang = normalizeLang(i18n.language)
  return {
    lang,
    hope: (value: string, opts: { signed?: boolean } = {}) =>
      formatMoney(cutDecimals(value, HOPE_SHOWN_DECIMALS), lang, opts),
  }
}

function SplitCard({ info, balance }: { info: VipInfo; balance: BalanceList }) {
  const { t } = useTranslation(['vip', 'translation'])
  const { lang, hope } = useHope()
  const split = balance.find((a) => a.kind === 'split')
  const rate = formatMoney(ratePercent(info.splitDailyRate), lang)
  return (
    <>
      <section className="hero-card vip-hero">
        {/* What is still locked leads; what can be used now is said beside it, as on Assets. */}
        <span className="hero-card__label">{t('split.remaining')}</span>
        <p className="vip-hero__amount" data-testid="split-locked">
          {hope(split?.locked ?? '0')}
        </p>
        <Facts
          className="vip-figures"
          facts={[
            [t('split.available'), hope(split?.available ?? '0'), 'split-available'],
            [t('split.released'), hope(info.split.released), 'split-released'],
            [t('split.total'), hope(info.split.total), 'split-total'],
            [t('split.rate'), t('split.ratePerDay', { rate }), 'split-rate'],
          ]}
        />
      </section>
      <section className="card vip-split-rule">
        <p className="vip-note">{t('split.note', { rate })}</p>
        <NavButton className="vip-link" to="/vip" data-testid="split-vip-link">
          <Icon name="vip" />
          {t('split.upgrade')}
          <Icon name="chevron" className="vip-link__arrow" />
        </NavButton>
      </section>
    </>
  )
}

function LogRow({ entry }: { entry: AccountLogEntry }) {
  const { t } = useTranslation(['money', 'translation'])
  const { lang, hope } = useHope()
  const outgoing = entry.amount.trim().startsWith('-')
  return (
    <li className="record" data-testid="split-log-item">
      <div className="record__head">
        <span className="vip-log__type" data-testid="split-log-type">
          {t(`accountLog.types.${LOG_TYPES[entry.logType]}`)}
        </span>
        <span
          className={outgoing ? 'vip-log__amount vip-log__amount--out' : 'vip-log__amount'}
          data-testid="split-log-amount"
        >
          {hope(entry.amount, { signed: true })} {entry.currency}
        </span>
      </div>
      <div className="vip-log__line">
        <span>{formatDateTime(entry.createdAt, lang)}</span>
        <span data-testid="split-log-balance">
          {t('accountLog.balanceAfter', {
            balance: `${hope(entry.balanceAfter)} ${entry.currency}`,
          })}
        </span>
      </div>
    </li>
  )
}

/**
 * The split account (DESIGN §7): the HOPE that membership upgrades bought, what has been
 * released of it into the community account and at what daily rate, and its account log.
 */
export function SplitPage() {
  const { t } = useTranslation(['vip', 'translation'])
  const info = useQuery(vipInfoOptions())
  const balance = useQuery(balanceOptions())
  const log = useInfiniteQuery(splitLogOptions())
  const entries = useRecordItems(log)

  return (
    <div className="vip" data-testid="screen-split">
      <Refreshable
        onRefresh={async () => {
          await Promise.all([info.refetch(), balance.refetch(), log.refetch()])
        }}
      >
        <QuerySection
          queries={[info, balance]}
          testId="split-figures"
          className="hero-card vip-hero"
          lines={3}
        >
          {(data, money) => <SplitCard info={data} balance={money} />}
        </QuerySection>
        <h2 className="vip-list-title">{t('split.log')}</h2>
        <RecordItems query={log} items={entries} empty={t('split.empty')} testId="split">
          {(entry) => <LogRow key={entry.id} entry={entry} />}
        </RecordItems>
      </Refreshable>
    </div>
  )
}
