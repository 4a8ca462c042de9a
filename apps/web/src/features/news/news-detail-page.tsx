import { normalizeLang } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../lib/format/format.ts'
import { INTL_LOCALES } from '../../lib/i18n/lang.ts'
import { UntranslatedNote } from '../../lib/ui/untranslated-note.tsx'
import { newsInfoOptions } from './api/news-info.ts'
import { ArticleImage, ArticleScreen, useArticleId } from './articles.tsx'
import './news.css'

/** `/news/:id`: one article, in the user's language or in Chinese when it has no version in it. */
export function NewsDetailPage() {
  const { t, i18n } = useTranslation(['content', 'translation'])
  const lang = normalizeLang(i18n.language)
  const { id, valid } = useArticleId()
  const article = useQuery({ ...newsInfoOptions(lang, id), enabled: valid })

  return (
    <ArticleScreen
      kind="news"
      className="news-article"
      valid={valid}
      query={article}
      skeleton={
        <>
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={6} animated />
        </>
      }
    >
      {(item) => {
        return (
          <article
            className="card news-article"
            lang={INTL_LOCALES[item.lang]}
            data-testid="news-detail"
          >
            <h1 className="news-article__title" data-testid="news-detail-title">
              {item.title}
            </h1>
            <p className="news-article__date">
              {t('news.published', { date: formatDateTime(item.publishedAt, lang) })}
            </p>
            <UntranslatedNote served={item.lang} />
            {item.image && (
              <ArticleImage
                className="news-article__image"
                src={item.image}
                sizes="(max-width: 750px) 100vw, 750px"
                width={750}
                height={422}
              />
            )}
            <div className="news-article__content">{item.content || item.summary}</div>
          </article>
        )
      }}
    </ArticleScreen>
  )
}
