import { normalizeLang } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../lib/format/format.ts'
import { INTL_LOCALES } from '../../lib/i18n/lang.ts'
import { UntranslatedNote } from '../../lib/ui/untranslated-note.tsx'
import { ArticleImage, ArticleScreen, useArticleId } from '../news/index.ts'
import { schoolInfoOptions } from './api/school-info.ts'
import './school.css'

/** `/school/:id`: an article, or a video played in the page with its poster and text. */
export function SchoolDetailPage() {
  const { t, i18n } = useTranslation(['content', 'translation'])
  const lang = normalizeLang(i18n.language)
  const { id, valid } = useArticleId()
  const lesson = useQuery({ ...schoolInfoOptions(lang, id), enabled: valid })

  return (
    <ArticleScreen
      kind="school"
      className="school-detail"
      valid={valid}
      query={lesson}
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
            className="card school-detail"
            lang={INTL_LOCALES[item.lang]}
            data-testid="school-detail"
          >
            {item.kind === 'video' && item.videoUrl ? (
              <video
                className="school-detail__video"
                src={item.videoUrl}
                poster={item.cover || undefined}
                controls
                playsInline
                preload="metadata"
                width={640}
                height={360}
                data-testid="school-video"
              >
                {t('school.videoUnsupported')}
              </video>
            ) : (
              item.cover && (
                <ArticleImage
                  className="school-detail__cover"
                  src={item.cover}
                  sizes="(max-width: 750px) 100vw, 750px"
                  width={640}
                  height={360}
                />
              )
            )}
            <h1 className="school-detail__title" data-testid="school-detail-title">
              {item.title}
            </h1>
            <p className="school-detail__date">
              {t('school.published', { date: formatDateTime(item.publishedAt, lang) })}
            </p>
            <UntranslatedNote served={item.lang} />
            <div className="school-detail__content">{item.content || item.summary}</div>
          </article>
        )
      }}
    </ArticleScreen>
  )
}
