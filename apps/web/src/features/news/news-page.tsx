import { NEWS_TYPES, normalizeLang, type NewsTypeCode, type NewsTypeName } from '@hope/api'
import { useInfiniteQuery } from '@tanstack/react-query'
import { Refreshable } from '../../lib/refreshable.tsx'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { PillTabs } from '../../lib/pill-tabs.tsx'
import { Navigate, useLocation, useNavigate } from 'react-router'
import { newsPagesOptions } from '../../lib/api/news.ts'
import { formatDateTime } from '../../lib/format.ts'
import { INTL_LOCALES } from '../../lib/lang.ts'
import { UntranslatedNote } from '../../lib/untranslated-note.tsx'
import './news.css'
import { ListEnd } from '../../lib/list-end.tsx'

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
  const items = useMemo(() => news.data?.pages.flatMap((page) => page.list) ?? [], [news.data])

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
      <Refreshable
        onRefresh={async () => {
          await news.refetch()
        }}
      >
        {news.isPending ? (
          <div className="card" aria-busy="true">
            <Skeleton.Title animated />
            <Skeleton.Paragraph lineCount={4} animated />
          </div>
        ) : news.isError && items.length === 0 ? (
          <button
            type="button"
            className="news-empty news-retry"
            onClick={() => void news.refetch()}
            data-testid="news-retry"
          >
            {t('translation:common.loadFailed')}
          </button>
        ) : items.length === 0 ? (
          <p className="news-empty" data-testid="news-empty">
            {t('news.empty')}
          </p>
        ) : (
          <ul className="news-list">
            {items.map((item) => (
              <li key={item.id}>
                <button
                  type="button"
                  className="news-item"
                  onClick={() => void navigate(`/news/${item.id}`)}
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
                  <span className="news-item__text">
                    <span className="news-item__title" lang={INTL_LOCALES[item.lang]}>
                      {item.title}
                    </span>
                    {item.summary && (
                      <span className="news-item__summary" lang={INTL_LOCALES[item.lang]}>
                        {item.summary}
                      </span>
                    )}
                    <UntranslatedNote served={item.lang} />
                    <span className="news-item__date">
                      {formatDateTime(item.publishedAt, lang)}
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <ListEnd query={news} count={items.length} testId="news" />
      </Refreshable>
    </div>
  )
}
