import { imageSrcSet, normalizeLang } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { formatDateTime } from '../../lib/format.ts'
import { INTL_LOCALES } from '../../lib/lang.ts'
import { ApiError } from '../../lib/request.ts'
import { UntranslatedNote } from '../../lib/untranslated-note.tsx'
import { newsInfoOptions } from './api/news-info.ts'
import './news.css'

/** `/news/:id`: one article, in the user's language or in Chinese when it has no version in it. */
export function NewsDetailPage() {
  const { t, i18n } = useTranslation(['content', 'translation'])
  const lang = normalizeLang(i18n.language)
  const id = Number(useParams().id)
  const valid = Number.isInteger(id) && id > 0
  const article = useQuery({ ...newsInfoOptions(lang, id), enabled: valid })

  if (valid && article.isPending)
    return (
      <div className="card news-article" aria-busy="true">
        <Skeleton.Title animated />
        <Skeleton.Paragraph lineCount={6} animated />
      </div>
    )
  if (!valid || article.isError || !article.data) {
    const missing =
      !valid || (article.error instanceof ApiError && article.error.reason === 'not_found')
    return (
      <div className="news-empty" data-testid="news-detail-missing">
        {missing ? (
          <p>{t('news.notFound')}</p>
        ) : (
          <button type="button" className="news-retry" onClick={() => void article.refetch()}>
            {t('translation:common.loadFailed')}
          </button>
        )}
        <Link className="news-back" to="/news">
          {t('news.backToList')}
        </Link>
      </div>
    )
  }

  const item = article.data
  const srcSet = imageSrcSet(item.image)
  return (
    <article className="card news-article" lang={INTL_LOCALES[item.lang]} data-testid="news-detail">
      <h1 className="news-article__title" data-testid="news-detail-title">
        {item.title}
      </h1>
      <p className="news-article__date">
        {t('news.published', { date: formatDateTime(item.publishedAt, lang) })}
      </p>
      <UntranslatedNote served={item.lang} />
      {item.image && (
        <img
          className="news-article__image"
          src={item.image}
          srcSet={srcSet || undefined}
          sizes={srcSet ? '(max-width: 750px) 100vw, 750px' : undefined}
          width={750}
          height={422}
          decoding="async"
          alt=""
        />
      )}
      <div className="news-article__content">{item.content || item.summary}</div>
    </article>
  )
}
