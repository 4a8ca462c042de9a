import { NEWS_TYPES, normalizeLang, type NewsTypeCode, type NewsTypeName } from '@hope/api'
import { useInfiniteQuery } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useTranslation } from 'react-i18next'
import { PillTabs } from '../../lib/ui/pill-tabs.tsx'
import { Navigate, useLocation, useNavigate } from 'react-router'
import { newsPagesOptions } from '../../lib/api/news.ts'
import { formatDateTime } from '../../lib/format/format.ts'
import { ArticleItemText, ArticleList } from './articles.tsx'
import { NavButton } from '../../lib/ui/nav-button.tsx'
import './news.css'

const TYPES = Object.entries(NEWS_TYPES).map(([code, name]) => ({
  code: Number(code) as NewsTypeCode,
  name,
}))
const DEFAULT_TYPE = TYPES[0]!

/** The tab in the link (`?type=industry`), so back from an article returns to the same list. */
function typeFromSearch(search: URLSearchParams) {
  const name = search.get('type')
  return TYPES.find((t) => t.name === name) ?? DEFAULT_TYPE
}

export function NewsPage() {
  const { t, i18n } = useTranslation(['content', 'translation'])
  const lang = normalizeLang(i18n.language)
  const { pathname, search } = useLocation()
  const navigate = useNavigate()
  const params = new URLSearchParams(search)
  const type = typeFromSearch(params)
  const news = useInfiniteQuery(newsPagesOptions(lang, type.code))

  // Links from before articles had their own screen: /news?id=5.
  const legacyId = Number(params.get('id'))
  if (Number.isInteger(legacyId) && legacyId > 0)
    return <Navigate to={`/news/${legacyId}`} replace />

  const choose = (name: NewsTypeName) =>
    void navigate({ pathname, search: `?type=${name}` }, { replace: true })

  return (
    <div className="news" data-testid="news-page">
      <PillTabs
        tabs={TYPES.map((tab) => ({ key: tab.name, label: t(`news.types.${tab.name}`) }))}
        selected={type.name}
        onSelect={choose}
        testId="news-tab"
      />
      <ArticleList
        kind="news"
        query={news}
        skeleton={
          <>
            <Skeleton.Title animated />
            <Skeleton.Paragraph lineCount={4} animated />
          </>
        }
      >
        {(item) => (
          <NavButton
            className="card-button news-item"
            to={`/news/${item.id}`}
            data-testid="news-item"
          >
            {item.image && (
              <img
                className="news-item__image"
                src={item.image}
                width={88}
                height={64}
                loading="lazy"
                decoding="async"
                alt=""
              />
            )}
            <ArticleItemText kind="news" item={item}>
              <span className="news-item__date">{formatDateTime(item.publishedAt, lang)}</span>
            </ArticleItemText>
          </NavButton>
        )}
      </ArticleList>
    </div>
  )
}
