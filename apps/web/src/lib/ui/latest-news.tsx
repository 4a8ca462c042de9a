import { normalizeLang } from '@hope/api'
import { useTranslation } from 'react-i18next'
import { latestNewsOptions } from '../api/news.ts'
import { useFirstRead } from '../api/first-read.ts'
import { formatDateTime } from '../format/format.ts'
import { NewsSkeleton } from './news-skeleton.tsx'
import { UntranslatedNote } from './untranslated-note.tsx'
import { Icon } from './icons.tsx'
import { NavButton } from './nav-button.tsx'
import './latest-news.css'

export const LATEST_NEWS_COUNT = 3

/** The news teaser of the home and account screens: the newest articles from `main/news`. */
export default function LatestNews() {
  const { t, i18n } = useTranslation()
  const lang = normalizeLang(i18n.language)
  const news = useFirstRead(latestNewsOptions(lang, LATEST_NEWS_COUNT))
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
          <NavButton to={`/news/${item.id}`} data-testid="news-item">
            <span className="latest-news__title">{item.title}</span>
            <UntranslatedNote served={item.lang} />
            <span className="latest-news__date">{formatDateTime(item.publishedAt, lang)}</span>
          </NavButton>
        </li>
      ))}
    </ul>
  )
}

/** The teaser as a card under its title, with a way to the whole news list. */
export function LatestNewsSection({ className, testId }: { className: string; testId: string }) {
  const { t } = useTranslation()
  return (
    <section className={className} data-testid={testId}>
      <h2 className="section-title">
        {t('home.latestNews')}
        <NavButton className="more-link" to="/news">
          {t('home.more')}
          <Icon name="chevron" />
        </NavButton>
      </h2>
      <LatestNews />
    </section>
  )
}
