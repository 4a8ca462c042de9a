import { normalizeLang } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { latestNewsOptions } from './api/news.ts'
import { formatDateTime } from './format.ts'
import { NewsSkeleton } from './news-skeleton.tsx'
import { QueryScope } from './query-scope.tsx'
import './latest-news.css'

const LATEST_NEWS_COUNT = 3

/** The newest articles from `main/news` in the user's language; tapping one opens it. */
function LatestNewsList() {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const lang = normalizeLang(i18n.language)
  const news = useQuery(latestNewsOptions(lang, LATEST_NEWS_COUNT))
  if (news.isPending) return <NewsSkeleton />
  if (news.isError)
    return (
      <button
        type="button"
        className="latest-news__empty latest-news__retry"
        onClick={() => void news.refetch()}
        data-testid="news-retry"
      >
        {t('common.loadFailed')}
      </button>
    )
  if (!news.data.list.length)
    return (
      <p className="latest-news__empty" data-testid="news-empty">
        {t('home.newsEmpty')}
      </p>
    )
  return (
    <ul className="latest-news">
      {news.data.list.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            onClick={() => void navigate(`/news/${item.id}`)}
            data-testid="news-item"
          >
            <span className="latest-news__title">{item.title}</span>
            <span className="latest-news__date">{formatDateTime(item.publishedAt, lang)}</span>
          </button>
        </li>
      ))}
    </ul>
  )
}

/** The news teaser of the home and account screens, with the query cache it needs. */
export default function LatestNews() {
  return (
    <QueryScope>
      <LatestNewsList />
    </QueryScope>
  )
}
