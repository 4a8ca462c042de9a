// `#/community`, the community tab. Test ids: screen-community, community-balance,
// community-balance-usdt, community-rank, community-rank-performance, community-rank-progress,
// community-rank-next, community-rank-amounts, community-earnings, community-earnings-day,
// earning-<logType> (earning-today, earning-total), community-entry-<name> for team, exchange,
// pledgeRecord, split, vip, holder, active and log; while loading or failed,
// community-<balance|rank|earnings>-skeleton / -retry.
import {
  LOG_TYPES,
  normalizeLang,
  type BalanceList,
  type Earnings,
  type TeamStats,
} from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import { useTranslation } from 'react-i18next'
import { balanceOptions } from '../../lib/api/balance.ts'
import { formatMoney } from '../../lib/format/format.ts'
import { formatZonedDay } from '../../lib/format/day.ts'
import { Icon, type IconName } from '../../lib/ui/icons.tsx'
import { earningsOptions } from './api/earnings.ts'
import { teamStatsOptions } from './api/team-stats.ts'
import { QuerySection } from './query-section.tsx'
import { cutAmount, rankName, rankProgress } from './team.rules.ts'
import { NavButton } from '../../lib/ui/nav-button.tsx'
import './team.css'
import { Words } from '../../lib/ui/words.tsx'
import { ProgressBar } from '../../lib/ui/figures.tsx'

/** HOPE is shown with at most this many decimals (the ledger keeps 18). */
const SHOWN_DECIMALS = 6

/** The community services, each opening its screen. */
const ENTRIES = [
  { name: 'team', to: '/team', icon: 'team' },
  { name: 'exchange', to: '/exchange', icon: 'swap' },
  { name: 'pledgeRecord', to: '/pledgeRecord', icon: 'record' },
  { name: 'split', to: '/split', icon: 'stake' },
  { name: 'vip', to: '/vip', icon: 'vip' },
  { name: 'holder', to: '/holder', icon: 'holder' },
  { name: 'active', to: '/active', icon: 'active' },
  { name: 'log', to: '/accountLog?account=community', icon: 'news' },
] as const satisfies readonly { name: string; to: string; icon: IconName }[]

function useLang() {
  const { i18n } = useTranslation()
  return normalizeLang(i18n.language)
}

function BalanceCard({ balance }: { balance: BalanceList }) {
  const { t } = useTranslation(['team', 'translation'])
  const lang = useLang()
  const community = balance.find((account) => account.kind === 'community')
  return (
    <section className="hero-card team-hero">
      <p className="hero-card__label">{t('community.balance')}</p>
      <p className="hero-card__amount" data-testid="community-balance">
        {formatMoney(cutAmount(community?.balance ?? '0', SHOWN_DECIMALS), lang)}
      </p>
      <p className="team-hero__note" data-testid="community-balance-usdt">
        {t('community.valueUsdt', { value: formatMoney(community?.valueUsdt ?? '0', lang) })}
      </p>
    </section>
  )
}

function RankCard({ stats }: { stats: TeamStats }) {
  const { t } = useTranslation(['team', 'translation'])
  const lang = useLang()
  const progress = rankProgress(stats)
  const percent = progress?.percent ?? '100'
  return (
    <section className="card">
      <h2 className="section-title">{t('community.rank')}</h2>
      <div className="team-rank">
        <span className="icon-tile team-rank__badge" data-rank={rankName(stats.rank)}>
          <Icon name="holder" />
        </span>
        <span className="team-rank__name" data-testid="community-rank">
          {t(`team:ranks.${rankName(stats.rank)}`)}
        </span>
        <span className="team-rank__performance">
          {t('community.rankPerformance')}
          <strong data-testid="community-rank-performance">
            {formatMoney(stats.rankPerformance, lang)} USDT
          </strong>
        </span>
      </div>
      <ProgressBar
        percent={percent}
        label={t('community.rankProgressLabel')}
        testId="community-rank-progress"
      />
      <div className="team-rank__facts">
        <span data-testid="community-rank-next">
          {progress
            ? t('community.nextRank', {
                missing: formatMoney(progress.missing, lang),
                rank: t(`team:ranks.${progress.next}`),
              })
            : t('community.topRank')}
        </span>
        {progress && (
          <span data-testid="community-rank-amounts">
            {t('community.rankAmounts', {
              performance: formatMoney(stats.rankPerformance, lang),
              threshold: formatMoney(progress.threshold, lang),
            })}
          </span>
        )}
      </div>
    </section>
  )
}

function EarningsCard({ earnings }: { earnings: Earnings }) {
  const { t } = useTranslation(['team', 'money', 'translation'])
  const lang = useLang()
  const amount = (value: string, currency: string) =>
    `${formatMoney(cutAmount(value, SHOWN_DECIMALS), lang)} ${currency}`
  return (
    <section className="card" data-testid="community-earnings">
      <h2 className="section-title">
        {t('community.earnings')}
        <span className="team-muted" data-testid="community-earnings-day">
          {t('community.earningsDay', {
            day: formatZonedDay(earnings.day, earnings.utcOffsetMinutes, lang),
          })}
        </span>
      </h2>
      {earnings.items.length === 0 ? (
        <p className="team-muted">{t('community.earningsEmpty')}</p>
      ) : (
        <ul className="team-earnings">
          {earnings.items.map((item) => (
            <li
              key={`${item.logType}-${item.currency}`}
              className="team-earning"
              data-testid={`earning-${item.logType}`}
            >
              <span className="team-earning__name">
                {t(`money:accountLog.types.${LOG_TYPES[item.logType]}`)}
              </span>
              <dl className="team-earning__amounts">
                <div>
                  <dt>{t('community.today')}</dt>
                  <dd data-testid="earning-today">{amount(item.today, item.currency)}</dd>
                </div>
                <div>
                  <dt>{t('community.total')}</dt>
                  <dd data-testid="earning-total">{amount(item.total, item.currency)}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function EntryGrid() {
  const { t } = useTranslation('team')
  return (
    <section className="card">
      <h2 className="section-title">{t('community.services')}</h2>
      <ul className="entry-grid">
        {ENTRIES.map((entry) => (
          <li key={entry.name}>
            <NavButton
              className="entry team-entry"
              to={entry.to}
              data-testid={`community-entry-${entry.name}`}
            >
              <span className="icon-tile">
                <Icon name={entry.icon} />
              </span>
              <span className="entry__label">
                <Words text={t(`community.entries.${entry.name}`)} />
              </span>
            </NavButton>
          </li>
        ))}
      </ul>
    </section>
  )
}

/**
 * The community system (DESIGN §7): the community account's HOPE, my rank and the way to the
 * next one, the rewards received by kind, and the community services.
 */
export function CommunityPage() {
  const balance = useQuery(balanceOptions())
  const stats = useQuery(teamStatsOptions())
  const earnings = useQuery(earningsOptions())

  return (
    <div className="team-screen team-screen--tab" data-testid="screen-community">
      <Refreshable
        onRefresh={async () => {
          await Promise.all([balance.refetch(), stats.refetch(), earnings.refetch()])
        }}
      >
        <QuerySection
          query={balance}
          testId="community-balance"
          className="hero-card team-hero"
          lines={2}
        >
          {(data) => <BalanceCard balance={data} />}
        </QuerySection>
        <QuerySection query={stats} testId="community-rank">
          {(data) => <RankCard stats={data} />}
        </QuerySection>
        <QuerySection query={earnings} testId="community-earnings" lines={5}>
          {(data) => <EarningsCard earnings={data} />}
        </QuerySection>
        <EntryGrid />
      </Refreshable>
    </div>
  )
}
