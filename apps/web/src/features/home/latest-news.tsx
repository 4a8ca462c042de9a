import { normalizeLang } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { latestNewsOptions } from '../../lib/api/news.ts'
import { formatDateTime } from '../../lib/format.ts'
import { QueryScope } from '../../lib/query-scope.tsx'
import { NewsSkeleton } from './news-skeleton.tsx'

const LATEST_NEWS_COUNT = 3

/** The newest items from `main/news`; tapping one opens it on /news. */
function LatestNewsList() {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const news = useQuery(latestNewsOptions(LATEST_NEWS_COUNT))
  const lang = normalizeLang(i18n.language)
  if (news.isPending) return <NewsSkeleton />
  if (!news.data?.list.length)
    return (
      <p className="home-empty" data-testid="news-empty">
        {t('home.newsEmpty')}
      </p>
    )
  return (
    <ul className="home-news">
      {news.data.list.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            onClick={() => void navigate(`/news?id=${item.id}`)}
            data-testid="news-item"
          >
            <span className="home-news__title">{item.title}</span>
            <span className="home-news__date">{formatDateTime(item.publishedAt, lang)}</span>
          </button>
        </li>
      ))}
    </ul>
  )
}

export default function LatestNews() {
  return (
    <QueryScope>
      <LatestNewsList />
    </QueryScope>
  )
}
