import { normalizeLang, SCHOOL_KINDS, type SchoolKind } from '@hope/api'
import { useInfiniteQuery } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useTranslation } from 'react-i18next'
import { PillTabs } from '../../lib/ui/pill-tabs.tsx'
import { useLocation, useNavigate } from 'react-router'
import { formatDateTime } from '../../lib/format/format.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { ArticleImage, ArticleItemText, ArticleList } from '../news/index.ts'
import { schoolPagesOptions } from './api/school-pages.ts'
import { NavButton } from '../../lib/ui/nav-button.tsx'
import './school.css'

const FILTERS = [undefined, ...SCHOOL_KINDS] as const

/** `/school`: business school articles and videos, all or one kind (kept in the link). */
export function SchoolPage() {
  const { t, i18n } = useTranslation(['content', 'translation'])
  const lang = normalizeLang(i18n.language)
  const { pathname, search } = useLocation()
  const navigate = useNavigate()
  const asked = new URLSearchParams(search).get('kind')
  const kind = SCHOOL_KINDS.find((k) => k === asked)
  const school = useInfiniteQuery(schoolPagesOptions(lang, kind))

  const choose = (next: SchoolKind | undefined) =>
    void navigate({ pathname, search: next ? `?kind=${next}` : '' }, { replace: true })

  return (
    <div className="school" data-testid="school-page">
      <PillTabs
        tabs={FILTERS.map((k) => ({
          key: k ?? ('all' as const),
          label: t(`school.kinds.${k ?? 'all'}`),
        }))}
        selected={kind ?? 'all'}
        onSelect={(key) => choose(key === 'all' ? undefined : key)}
        testId="school-tab"
      />
      <ArticleList
        kind="school"
        query={school}
        skeleton={<Skeleton.Paragraph lineCount={5} animated />}
      >
        {(item) => {
          return (
            <NavButton
              className="card-button school-item"
              to={`/school/${item.id}`}
              data-testid="school-item"
            >
              <span className="school-item__cover">
                {item.cover && (
                  <ArticleImage
                    src={item.cover}
                    sizes="7.5rem"
                    width={120}
                    height={68}
                    loading="lazy"
                  />
                )}
                {item.kind === 'video' && (
                  <span className="school-item__play" aria-label={t('school.kinds.video')}>
                    <Icon name="play" />
                  </span>
                )}
              </span>
              <ArticleItemText kind="school" item={item}>
                <span className="school-item__meta">
                  <span className={`school-kind school-kind--${item.kind}`}>
                    {t(`school.kinds.${item.kind}`)}
                  </span>
                  {formatDateTime(item.publishedAt, lang)}
                </span>
              </ArticleItemText>
            </NavButton>
          )
        }}
      </ArticleList>
    </div>
  )
}
