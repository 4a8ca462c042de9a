// `#/ranking?kind=inviters|performance`, the ranking (DESIGN §9). Test ids: screen-ranking,
// ranking-tab-<inviters|performance>, ranking-day, ranking-mine, ranking-item (data-mine, with
// ranking-rank, ranking-address, ranking-value), ranking-empty, and ranking-skeleton /
// ranking-retry while it loads or failed.
import { RANKING_KINDS, normalizeLang, type Ranking, type RankingItem } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { formatDateTime, formatMoney, formatNumber } from '../../lib/format/format.ts'
import { formatZonedDay } from '../../lib/format/day.ts'
import { rankingOptions } from './api/ranking.ts'
import { kindFromSearch, medalOf } from './ranking.rules.ts'
import { RetryButton } from '../../lib/ui/retry-button.tsx'
import './ranking.css'
import { PillTabs } from '../../lib/ui/pill-tabs.tsx'

function RankingRow({ item, kind }: { item: RankingItem; kind: Ranking['kind'] }) {
  const { t, i18n } = useTranslation('ranking')
  const lang = normalizeLang(i18n.language)
  const medal = medalOf(item.rank)
  return (
    <li
      className={item.mine ? 'ranking-item ranking-item--mine' : 'ranking-item'}
      data-testid="ranking-item"
      data-mine={item.mine}
      aria-current={item.mine ? 'true' : undefined}
    >
      <span
        className={medal ? `ranking-item__rank ranking-item__rank--${medal}` : 'ranking-item__rank'}
        data-testid="ranking-rank"
      >
        {item.rank}
      </span>
      <span className="ranking-item__who">
        <span className="ranking-item__address" data-testid="ranking-address">
          {item.address}
        </span>
        {item.mine && <span className="ranking-item__me">{t('ranking.me')}</span>}
      </span>
      <span className="ranking-item__value" data-testid="ranking-value">
        {kind === 'inviters'
          ? formatNumber(item.value, lang)
          : `${formatMoney(item.value, lang)} USDT`}
      </span>
    </li>
  )
}

function RankingList({ ranking }: { ranking: Ranking }) {
  const { t, i18n } = useTranslation('ranking')
  const lang = normalizeLang(i18n.language)
  return (
    <>
      <div className="ranking-meta">
        <span className="ranking-meta__when">
          <span data-testid="ranking-day">
            {t('ranking.day', { day: formatZonedDay(ranking.day, ranking.utcOffsetMinutes, lang) })}
          </span>
          <span className="ranking-meta__taken" data-testid="ranking-taken-at">
            {t('ranking.takenAt', {
              time: formatDateTime(ranking.takenAt, lang),
              minutes: ranking.refreshMinutes,
            })}
          </span>
        </span>
        <span
          className={
            ranking.myRank === null
              ? 'ranking-meta__mine ranking-meta__mine--none'
              : 'ranking-meta__mine'
          }
          data-testid="ranking-mine"
        >
          {ranking.myRank === null
            ? t('ranking.notRanked')
            : t('ranking.myRank', { rank: ranking.myRank })}
        </span>
      </div>
      {ranking.list.length === 0 ? (
        <p className="ranking-empty" data-testid="ranking-empty">
          {t('ranking.empty')}
        </p>
      ) : (
        <section className="card ranking-card">
          <h2 className="ranking-card__head">
            <span>#</span>
            <span>{t(`ranking.valueTitle.${ranking.kind}`)}</span>
          </h2>
          <ol className="ranking-list">
            {ranking.list.map((item) => (
              <RankingRow key={item.rank} item={item} kind={ranking.kind} />
            ))}
          </ol>
        </section>
      )}
    </>
  )
}

/** Top inviters and top team performance, today's snapshot, my own place highlighted. */
export function RankingPage() {
  const { t } = useTranslation(['ranking', 'translation'])
  const { pathname, search } = useLocation()
  const navigate = useNavigate()
  const kind = kindFromSearch(new URLSearchParams(search))
  const query = useQuery(rankingOptions(kind))

  return (
    <div className="ranking" data-testid="screen-ranking">
      <PillTabs
        tabs={RANKING_KINDS.map((k) => ({ key: k, label: t(`ranking.tabs.${k}`) }))}
        selected={kind}
        onSelect={(k) => void navigate({ pathname, search: `?kind=${k}` }, { replace: true })}
        testId="ranking-tab"
        label={t('ranking.tabsLabel')}
        className="ranking-tabs"
        tabClassName="ranking-tab"
        onClassName="ranking-tab--on"
      />
      <Refreshable
        onRefresh={async () => {
          await query.refetch()
        }}
      >
        {query.data ? (
          <RankingList ranking={query.data} />
        ) : query.isError ? (
          <RetryButton
            className="ranking-empty ranking-retry"
            onClick={() => void query.refetch()}
            data-testid="ranking-retry"
          />
        ) : (
          <div className="card" aria-busy="true" data-testid="ranking-skeleton">
            <Skeleton.Paragraph lineCount={8} animated />
          </div>
        )}
      </Refreshable>
    </div>
  )
}
