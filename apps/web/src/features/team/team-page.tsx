// `#/team`, the business center. Test ids: screen-team, team-rank, team-people, team-direct,
// team-consensus, team-community, team-rank-performance, team-partition-<1|2|3> (with
// data-major, team-partition-tag, team-partition-people, -consensus, -community), team-member
// (team-member-address, -level, -partition, -people, -consensus, -joined) and the list's
// team-members-skeleton / -empty / -retry / -more-retry; while the totals load or failed,
// team-stats-skeleton / -retry.
import { normalizeLang, type DirectMember, type TeamPartition, type TeamStats } from '@hope/api'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import { useTranslation } from 'react-i18next'
import { formatDateTime, formatMoney, formatNumber } from '../../lib/format/format.ts'
import { mask } from '../../lib/format/mask.ts'
import { RecordItems, useRecordItems } from '../../lib/ui/record-pages.tsx'
import { directMembersOptions } from '../../lib/api/direct-members.ts'
import { teamStatsOptions } from './api/team-stats.ts'
import { QuerySection } from './query-section.tsx'
import { levelName, PARTITIONS, rankName, strongestPartition } from './team.rules.ts'
import '../../lib/ui/record-list.css'
import './team.css'
import { Facts } from '../../lib/ui/figures.tsx'

function useLang() {
  const { i18n } = useTranslation()
  return normalizeLang(i18n.language)
}

function TotalsCard({ stats }: { stats: TeamStats }) {
  const { t } = useTranslation(['team', 'translation'])
  const lang = useLang()
  return (
    <section className="hero-card team-hero">
      <div className="hero-card__head">
        <span className="hero-card__label">{t('team.rank')}</span>
        <span className="hero-chip hero-chip--badge" data-testid="team-rank">
          {t(`team:ranks.${rankName(stats.rank)}`)}
        </span>
      </div>
      <Facts
        className="hero-card__facts team-totals"
        facts={[
          [t('team.people'), formatNumber(stats.people, lang), 'team-people'],
          [t('team.direct'), formatNumber(stats.directPeople, lang), 'team-direct'],
          [t('team.consensus'), formatMoney(stats.consensus, lang), 'team-consensus'],
          [t('team.community'), formatMoney(stats.community, lang), 'team-community'],
        ]}
      />
      <p className="team-hero__note" data-testid="team-rank-performance">
        {t('team.rankPerformance', { performance: formatMoney(stats.rankPerformance, lang) })}
      </p>
    </section>
  )
}

function PartitionCard({ partition, major }: { partition: TeamPartition; major: boolean }) {
  const { t } = useTranslation(['team', 'translation', 'invite'])
  const lang = useLang()
  return (
    <article
      className={major ? 'team-partition team-partition--major' : 'team-partition'}
      data-major={major}
      data-testid={`team-partition-${partition.location}`}
    >
      <span className="team-partition__name">
        {t(`invite:partitions.${PARTITIONS[partition.location]}`)}
      </span>
      <span className="team-partition__tag" data-testid="team-partition-tag">
        {major ? t('team.major') : t('team.minor')}
      </span>
      <Facts
        className="team-partition__facts"
        facts={[
          [
            t('team.partitionPeople'),
            formatNumber(partition.people, lang),
            'team-partition-people',
          ],
          [
            t('team.partitionConsensus'),
            formatMoney(partition.consensus, lang),
            'team-partition-consensus',
          ],
          [
            t('team.partitionCommunity'),
            formatMoney(partition.community, lang),
            'team-partition-community',
          ],
        ]}
      />
    </article>
  )
}

function PartitionsCard({ stats }: { stats: TeamStats }) {
  const { t } = useTranslation('team')
  const strongest = strongestPartition(stats.partitions)
  return (
    <section className="card">
      <h2 className="section-title">
        {t('team.partitions')}
        <span className="team-muted">USDT</span>
      </h2>
      <div className="team-partitions">
        {stats.partitions.map((partition) => (
          <PartitionCard
            key={partition.location}
            partition={partition}
            major={partition.location === strongest}
          />
        ))}
      </div>
      <p className="team-note">{t('team.partitionsNote')}</p>
    </section>
  )
}

function MemberRow({ member }: { member: DirectMember }) {
  const { t } = useTranslation(['team', 'translation', 'invite'])
  const lang = useLang()
  return (
    <li className="record" data-testid="team-member">
      <div className="record__head">
        <span className="record__mono team-member__address" data-testid="team-member-address">
          {mask(member.userName)}
        </span>
        <span className="team-level" data-testid="team-member-level">
          {t(`translation:levels.${levelName(member.level)}`)}
        </span>
      </div>
      <Facts
        className="record__rows"
        facts={[
          [
            t('team.member.partition'),
            <>{t(`invite:partitions.${PARTITIONS[member.location]}`)}</>,
            'team-member-partition',
          ],
          [
            t('team.member.teamPeople'),
            formatNumber(member.teamPeople, lang),
            'team-member-people',
          ],
          [
            t('team.member.consensus'),
            <>{formatMoney(member.consensus, lang)} USDT</>,
            'team-member-consensus',
          ],
        ]}
      />
      <p className="record__date" data-testid="team-member-joined">
        {t('team.member.joined', { date: formatDateTime(member.createdAt, lang) })}
      </p>
    </li>
  )
}

/**
 * The business center (DESIGN §7): my team's people and performance, its three partitions with
 * the strongest left out of the rank, and the members I invited directly.
 */
export function TeamPage() {
  const { t } = useTranslation(['team', 'translation'])
  const stats = useQuery(teamStatsOptions())
  const members = useInfiniteQuery(directMembersOptions())
  const items = useRecordItems(members)

  return (
    <div className="team-screen" data-testid="screen-team">
      <Refreshable
        onRefresh={async () => {
          await Promise.all([stats.refetch(), members.refetch()])
        }}
      >
        <QuerySection query={stats} testId="team-stats" className="hero-card team-hero" lines={4}>
          {(data) => (
            <>
              <TotalsCard stats={data} />
              <PartitionsCard stats={data} />
            </>
          )}
        </QuerySection>
        <h2 className="team-list-title">{t('team.members')}</h2>
        <RecordItems
          query={members}
          items={items}
          empty={t('team.membersEmpty')}
          testId="team-members"
        >
          {(member) => <MemberRow key={member.userName} member={member} />}
        </RecordItems>
      </Refreshable>
    </div>
  )
}
