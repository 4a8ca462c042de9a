import { normalizeLang } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import NoticeBar from 'antd-mobile/es/components/notice-bar'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { latestNewsOptions } from '../../lib/api/news.ts'
import { QueryScope } from '../../lib/query-scope.tsx'

const TICKER_COUNT = 5
/** Long enough to read (and to scroll) one title before the next. */
const ROTATE_MS = 6000

/** The newest announcements, one at a time; tapping one opens it. */
function Ticker() {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const news = useQuery(latestNewsOptions(normalizeLang(i18n.language), TICKER_COUNT, 1))
  const list = news.data?.list ?? []
  const [index, setIndex] = useState(0)
  useEffect(() => {
    if (list.length < 2) return
    const timer = setInterval(() => setIndex((i) => (i + 1) % list.length), ROTATE_MS)
    return () => clearInterval(timer)
  }, [list.length])
  const item = list[index % Math.max(list.length, 1)]
  if (!item) return null
  return (
    <NoticeBar
      className="home-ticker"
      color="info"
      shape="rounded"
      bordered={false}
      aria-label={t('home.announcements')}
      data-testid="home-ticker"
      content={
        <button
          key={item.id}
          type="button"
          className="home-ticker__item"
          onClick={() => void navigate(`/news/${item.id}`)}
          data-testid="home-ticker-item"
        >
          {item.title}
        </button>
      }
    />
  )
}

/** Loaded after the first paint, with the query cache. */
export default function NewsTicker() {
  return (
    <QueryScope>
      <Ticker />
    </QueryScope>
  )
}
