import { imageSrcSet, normalizeLang, SCHOOL_KINDS, type SchoolKind } from '@hope/api'
import { useInfiniteQuery } from '@tanstack/react-query'
import { Refreshable } from '../../lib/refreshable.tsx'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { PillTabs } from '../../lib/pill-tabs.tsx'
import { useLocation, useNavigate } from 'react-router'
import { formatDateTime } from '../../lib/format.ts'
import { Icon } from '../../lib/icons.tsx'
import { INTL_LOCALES } from '../../lib/lang.ts'
import { UntranslatedNote } from '../../lib/untranslated-note.tsx'
import { schoolPagesOptions } from './api/school-pages.ts'
import './school.css'
import { ListEnd } from '../../lib/list-end.tsx'

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
  const items = useMemo(() => school.data?.pages.flatMap((p) => p.list) ?? [], [school.data])

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
      <Refreshable
        onRefresh={async () => {
          await school.refetch()
        }}
      >
        {school.isPending ? (
          <div className="card" aria-busy="true">
            <Skeleton.Paragraph lineCount={5} animated />
          </div>
        ) : school.isError && items.length === 0 ? (
          <button
            type="button"
            className="school-empty school-retry"
            onClick={() => void school.refetch()}
            data-testid="school-retry"
          >
            {t('translation:common.loadFailed')}
          </button>
        ) : items.length === 0 ? (
          <p className="school-empty" data-testid="school-empty">
            {t('school.empty')}
          </p>
        ) : (
          <ul className="school-list">
            {items.map((item) => {
              const srcSet = imageSrcSet(item.cover)
              return (
                <li key={item.id}>
                  <button
                    type="button"
                    className="school-item"
                    onClick={() => void navigate(`/school/${item.id}`)}
                    data-testid="school-item"
                  >
                    <span className="school-item__cover">
                      {item.cover && (
                        <img
                          src={item.cover}
                          srcSet={srcSet || undefined}
                          sizes={srcSet ? '7.5rem' : undefined}
                          width={120}
                          height={68}
                          loading="lazy"
                          decoding="async"
                          alt=""
                        />
                      )}
                      {item.kind === 'video' && (
                        <span className="school-item__play" aria-label={t('school.kinds.video')}>
                          <Icon name="play" />
                        </span>
                      )}
                    </span>
                    <span className="school-item__text">
                      <span className="school-item__title" lang={INTL_LOCALES[item.lang]}>
                        {item.title}
                      </span>
                      {item.summary && (
                        <span className="school-item__summary" lang={INTL_LOCALES[item.lang]}>
                          {item.summary}
                        </span>
                      )}
                      <UntranslatedNote served={item.lang} />
                      <span className="school-item__meta">
                        <span className={`school-kind school-kind--${item.kind}`}>
                          {t(`school.kinds.${item.kind}`)}
                        </span>
                        {formatDateTime(item.publishedAt, lang)}
                      </span>
                    </span>
                  </button>
                </li>
              )
            })}
          </ul>
        )}
        <ListEnd query={school} count={items.length} testId="school" />
      </Refreshable>
    </div>
  )
}
