import { normalizeLang, type NewsItem } from '@hope/api'
import { useInfiniteQuery } from '@tanstack/react-query'
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll'
import Popup from 'antd-mobile/es/components/popup'
import PullToRefresh from 'antd-mobile/es/components/pull-to-refresh'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { newsPagesOptions } from '../../lib/api/news.ts'
import { formatDateTime } from '../../lib/format.ts'
import './news.css'

function NewsDetail({ item, onClose }: { item: NewsItem | null; onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const lang = normalizeLang(i18n.language)
  return (
    <Popup
      visible={item !== null}
      onMaskClick={onClose}
      onClose={onClose}
      showCloseButton
      bodyClassName="news-detail"
      destroyOnClose
    >
      {item && (
        <article data-testid="news-detail">
          <h2 className="news-detail__title">{item.title}</h2>
          <p className="news-detail__date">
            {t('news.published', { date: formatDateTime(item.publishedAt, lang) })}
          </p>
          {item.image && <img className="news-detail__image" src={item.image} alt="" />}
          <div className="news-detail__content">{item.content}</div>
        </article>
      )}
    </Popup>
  )
}

export function NewsPage() {
  const { t, i18n } = useTranslation()
  const lang = normalizeLang(i18n.language)
  const { search } = useLocation()
  const navigate = useNavigate()
  const params = new URLSearchParams(search)
  const news = useInfiniteQuery(newsPagesOptions())
  const items = useMemo(() => news.data?.pages.flatMap((page) => page.list) ?? [], [news.data])
  const openId = Number(params.get('id'))
  const [selected, setSelected] = useState<NewsItem | null>(null)
  const shown = selected ?? items.find((item) => item.id === openId) ?? null
  const close = () => {
    setSelected(null)
    if (params.has('id')) void navigate('/news', { replace: true })
  }

  return (
    <div className="news" data-testid="news-page">
      <PullToRefresh
        onRefresh={async () => {
          await news.refetch()
        }}
        pullingText={t('common.pullToRefresh.pulling')}
        canReleaseText={t('common.pullToRefresh.canRelease')}
        refreshingText={t('common.pullToRefresh.refreshing')}
        completeText={t('common.pullToRefresh.complete')}
      >
        {news.isPending ? (
          <div className="card">
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
            {t('common.loadFailed')}
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
                  onClick={() => setSelected(item)}
                  data-testid="news-item"
                >
                  {item.image && <img className="news-item__image" src={item.image} alt="" />}
                  <span className="news-item__text">
                    <span className="news-item__title">{item.title}</span>
                    {item.summary && <span className="news-item__summary">{item.summary}</span>}
                    <span className="news-item__date">
                      {formatDateTime(item.publishedAt, lang)}
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {!news.isPending && (
          <InfiniteScroll
            hasMore={news.hasNextPage && !news.isFetchNextPageError}
            loadMore={async () => {
              await news.fetchNextPage()
            }}
          >
            {news.hasNextPage ? (
              <span>{t('common.loading')}</span>
            ) : items.length > 0 ? (
              <span>{t('common.noMore')}</span>
            ) : null}
          </InfiniteScroll>
        )}
      </PullToRefresh>
      <NewsDetail item={shown} onClose={close} />
    </div>
  )
}
