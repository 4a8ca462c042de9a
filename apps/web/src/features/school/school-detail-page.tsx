import { useTranslation } from 'react-i18next'
import { ArticleDetail, ArticleImage } from '../news/index.ts'
import { schoolInfoOptions } from './api/school-info.ts'
import './school.css'

/** `/school/:id`: an article, or a video played in the page with its poster and text. */
export function SchoolDetailPage() {
  const { t } = useTranslation(['content', 'translation'])
  return (
    <ArticleDetail
      kind="school"
      className="school-detail"
      options={schoolInfoOptions}
      top={(item) =>
        item.kind === 'video' && item.videoUrl ? (
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
              width={640}
              height={360}
            />
          )
        )
      }
    />
  )
}
