import { imageSrcSet, type Lang } from '@hope/api'
import { useMemo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
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
export function useArticleId() {
  const id = Number(useParams().id)
  return { id, valid: Number.isInteger(id) && id > 0 }
}

/** What an article screen needs of its `useQuery`. */
interface ArticleQuery<T> {
  data: T | undefined
  isPending: boolean
  isError: boolean
  error: unknown
  refetch(): Promise<unknown>
}

/**
 * An article's screen: `skeleton` in a card of `className` while it loads; "not found" (a bad
 * id, or gone) or a retry, with the way back to the list; else `children` of the article.
 */
export function ArticleScreen<T>({
  kind,
  className,
  valid,
  query,
  skeleton,
  children,
}: {
  kind: ArticleKind
  className: string
  valid: boolean
  query: ArticleQuery<T>
  skeleton: ReactNode
  children: (item: T) => ReactNode
}) {
  const { t } = useTranslation(['content', 'translation'])
  if (valid && query.isPending)
    return (
      <div className={`card ${className}`} aria-busy="true">
        {skeleton}
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
  return children(query.data)
}

/**
 * An article's picture, offered in the sizes the server serves (`imageSrcSet`); `sizes` says
 * how wide it is drawn, once there are sizes to choose from.
 */
export function ArticleImage({
  src,
  sizes,
  ...props
}: {
  src: string
  sizes: string
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
