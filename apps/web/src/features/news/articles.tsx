import { imageSrcSet, normalizeLang, type Lang } from '@hope/api'
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useMemo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { formatDateTime } from '../../lib/format/format.ts'
import { INTL_LOCALES } from '../../lib/i18n/lang.ts'
import { ListEnd, type PagedQuery } from '../../lib/ui/list-end.tsx'
import { Refreshable } from '../../lib/ui/refreshable.tsx'
import { ApiError } from '../../lib/api/request.ts'
import { UntranslatedNote } from '../../lib/ui/untranslated-note.tsx'
import { RetryButton } from '../../lib/ui/retry-button.tsx'
import './articles.css'

/**
 * The operator's texts the app lists and opens: news articles and business school lessons.
 * Their class names, test ids, texts and links all start with it (`news-empty`, `/school`).
 */
export type ArticleKind = 'news' | 'school'

/** An article as a list or its screen has it, in the language it was served in. */
interface ServedText {
  id: number
  lang: Lang
  title: string
  summary: string
}

/** What a list needs of its `useInfiniteQuery`. */
interface ArticlePages<T> extends PagedQuery {
  data: { pages: { list: T[] }[] } | undefined
  isError: boolean
  refetch(): Promise<unknown>
}

/**
 * A paged list of articles, refreshed by pulling: `skeleton` while the first page loads, a
 * retry when it failed, a line when there are none, else one `<li>` an item.
 */
export function ArticleList<T extends ServedText>({
  kind,
  query,
  skeleton,
  children,
}: {
  kind: ArticleKind
  query: ArticlePages<T>
  skeleton: ReactNode
  children: (item: T) => ReactNode
}) {
  const { t } = useTranslation(['content', 'translation'])
  const items = useMemo(() => query.data?.pages.flatMap((page) => page.list) ?? [], [query.data])
  return (
    <Refreshable
      onRefresh={async () => {
        await query.refetch()
      }}
    >
      {query.isPending ? (
        <div className="card" aria-busy="true">
          {skeleton}
        </div>
      ) : query.isError && items.length === 0 ? (
        <RetryButton
          className={`${kind}-empty ${kind}-retry`}
          onClick={() => void query.refetch()}
          data-testid={`${kind}-retry`}
        />
      ) : items.length === 0 ? (
        <p className={`${kind}-empty`} data-testid={`${kind}-empty`}>
          {t(`${kind}.empty`)}
        </p>
      ) : (
        <ul className={`${kind}-list`}>
          {items.map((item) => (
            <li key={item.id}>{children(item)}</li>
          ))}
        </ul>
      )}
      <ListEnd query={query} count={items.length} testId={kind} />
    </Refreshable>
  )
}

/** A listed item's texts: title, summary, whether it is untranslated, then `children`. */
export function ArticleItemText({
  kind,
  item,
  children,
}: {
  kind: ArticleKind
  item: ServedText
  children: ReactNode
}) {
  return (
    <span className={`${kind}-item__text`}>
      <span className={`${kind}-item__title`} lang={INTL_LOCALES[item.lang]}>
        {item.title}
      </span>
      {item.summary && (
        <span className={`${kind}-item__summary`} lang={INTL_LOCALES[item.lang]}>
          {item.summary}
        </span>
      )}
      <UntranslatedNote served={item.lang} />
      {children}
    </span>
  )
}

/** The id in an article screen's link (`/news/:id`), and whether it can be one. */
function useArticleId() {
  const id = Number(useParams().id)
  return { id, valid: Number.isInteger(id) && id > 0 }
}

/** An article as its screen has it: its texts in the language served, and when it was out. */
interface ArticleText extends ServedText {
  content: string
  publishedAt: string
}

/**
 * The screen of one article (`/<kind>/:id`), in the user's language or in Chinese when it has
 * no version in it: a card of `className` with `top` above the title (a lesson's video or
 * cover), the date, a note when it is untranslated, `picture` (a news picture) and the text.
 * Its parts' classes are `<className>__title`, `__date`, `__content`; its test ids
 * `<kind>-detail` and `<kind>-detail-title`. While it loads, a skeleton in the card; "not
 * found" (a bad id, or gone) or a retry, with the way back to the list.
 */
export function ArticleDetail<T extends ArticleText, Key extends QueryKey>({
  kind,
  className,
  options,
  top,
  picture,
}: {
  kind: ArticleKind
  className: string
  /** The query of one article in a language. */
  options: (lang: Lang, id: number) => UseQueryOptions<T, Error, T, Key>
  top?: (item: T) => ReactNode
  picture?: (item: T) => ReactNode
}) {
  const { t, i18n } = useTranslation(['content', 'translation'])
  const lang = normalizeLang(i18n.language)
  const { id, valid } = useArticleId()
  const query = useQuery({ ...options(lang, id), enabled: valid })
  if (valid && query.isPending)
    return (
      <div className={`card ${className}`} aria-busy="true">
        <Skeleton.Title animated />
        <Skeleton.Paragraph lineCount={6} animated />
      </div>
    )
  if (!valid || query.isError || !query.data) {
    const missing =
      !valid || (query.error instanceof ApiError && query.error.reason === 'not_found')
    return (
      <div className={`${kind}-empty`} data-testid={`${kind}-detail-missing`}>
        {missing ? (
          <p>{t(`${kind}.notFound`)}</p>
        ) : (
          <RetryButton className={`${kind}-retry`} onClick={() => void query.refetch()} />
        )}
        <Link className={`${kind}-back`} to={`/${kind}`}>
          {t(`${kind}.backToList`)}
        </Link>
      </div>
    )
  }
  const item = query.data
  return (
    <article
      className={`card ${className}`}
      lang={INTL_LOCALES[item.lang]}
      data-testid={`${kind}-detail`}
    >
      {top?.(item)}
      <h1 className={`${className}__title`} data-testid={`${kind}-detail-title`}>
        {item.title}
      </h1>
      <p className={`${className}__date`}>
        {t(`${kind}.published`, { date: formatDateTime(item.publishedAt, lang) })}
      </p>
      <UntranslatedNote served={item.lang} />
      {picture?.(item)}
      <div className={`${className}__content`}>{item.content || item.summary}</div>
    </article>
  )
}

/**
 * An article's picture, offered in the sizes the server serves (`imageSrcSet`); `sizes` says
 * how wide it is drawn (across an article's screen unless said), once there are sizes to
 * choose from.
 */
export function ArticleImage({
  src,
  sizes = '(max-width: 750px) 100vw, 750px',
  ...props
}: {
  src: string
  sizes?: string
  className?: string
  width: number
  height: number
  loading?: 'lazy'
}) {
  const srcSet = imageSrcSet(src)
  return (
    <img
      {...props}
      src={src}
      srcSet={srcSet || undefined}
      sizes={srcSet ? sizes : undefined}
      decoding="async"
      alt=""
    />
  )
}
