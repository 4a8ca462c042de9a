import type {
  AdminBanner,
  AdminNews,
  AdminSchoolItem,
  BannerItem,
  ContentKind,
  Lang,
  NewsItem,
  NewsText,
  NewsTypeCode,
  Page,
  SchoolItem,
  SchoolKind,
  SchoolText,
} from '@hope/api'
import { LANGS } from '@hope/api'
import type pg from 'pg'
import { AppError } from '../../lib/app-error.ts'
import { inTransaction } from '../../db/transaction.ts'
import { recordAudit } from '../audit/audit.service.ts'
import * as repo from './content.repository.ts'
import {
  checkNewItem,
  checkRemovableLang,
  mergeBase,
  mergeText,
  schoolVideo,
} from './content.rules.ts'

interface Paging {
  pageNum: number
  pageSize: number
}

const page = <T>({ pageNum, pageSize }: Paging, found: { rows: T[]; total: number }): Page<T> => ({
  list: found.rows,
  total: found.total,
  pageNum,
  pageSize,
})
const slice = ({ pageNum, pageSize }: Paging) => ({
  limit: pageSize,
  offset: (pageNum - 1) * pageSize,
})

const EMPTY_TEXT: NewsText = { title: '', summary: '', content: '' }

export interface SaveBanner {
  id?: number | undefined
  lang: Lang
  title?: string | undefined
  image?: string | undefined
  link?: string | undefined
  sort?: number | undefined
  published?: boolean | undefined
}

export interface SaveNews {
  id?: number | undefined
  lang: Lang
  title?: string | undefined
  summary?: string | undefined
  content?: string | undefined
  type?: NewsTypeCode | undefined
  image?: string | undefined
  published?: boolean | undefined
}

export interface SaveSchool {
  id?: number | undefined
  lang: Lang
  title?: string | undefined
  summary?: string | undefined
  content?: string | undefined
  kind?: SchoolKind | undefined
  cover?: string | undefined
  videoUrl?: string | undefined
  published?: boolean | undefined
}

/**
 * Banners, news and business school items: what members read in their language (Chinese when
 * an item has no version in it), and the operators' edits, each audited with the item before
 * and after in the same transaction.
 */
export function createContentService(deps: { pool: pg.Pool }) {
  const { pool } = deps

  const audit = (
    q: pg.PoolClient,
    operatorId: number,
    action: string,
    before: unknown,
    after: unknown,
  ) => recordAudit(q, { operatorId, action, targetUserId: null, reason: '', before, after })

  const found = <T>(item: T | undefined): T => {
    if (!item) throw new AppError('not_found')
    return item
  }

  return {
    banners: (lang: Lang): Promise<BannerItem[]> => repo.publishedBanners(pool, lang),

    /** The published banners in every language (the web app's shell carries them). */
    bannersInEveryLang: () => repo.publishedBannersByLang(pool, LANGS),

    async news(lang: Lang, params: Paging & { type?: NewsTypeCode | undefined }) {
      return page(
        params,
        await repo.publishedNews(pool, { lang, type: params.type, ...slice(params) }),
      )
    },

    newsInfo: async (lang: Lang, id: number): Promise<NewsItem> =>
      found(await repo.publishedNewsById(pool, id, lang)),

    async school(lang: Lang, params: Paging & { kind?: SchoolKind | undefined }) {
      return page(
        params,
        await repo.publishedSchool(pool, { lang, kind: params.kind, ...slice(params) }),
      )
    },

    schoolInfo: async (lang: Lang, id: number): Promise<SchoolItem> =>
      found(await repo.publishedSchoolById(pool, id, lang)),

    adminBanners: (): Promise<AdminBanner[]> => repo.adminBanners(pool),

    async adminNews(params: Paging & { type?: NewsTypeCode | undefined }) {
      return page(params, await repo.adminNewsPage(pool, params.type, params))
    },

    async adminSchool(params: Paging) {
      return page(params, await repo.adminSchoolPage(pool, params))
    },

    saveBanner(operatorId: number, p: SaveBanner): Promise<AdminBanner> {
      return inTransaction(pool, async (q) => {
        const before = p.id === undefined ? undefined : found(await repo.adminBanner(q, p.id, true))
        let id: number
        if (!before) {
          checkNewItem(p.lang, p.title)
          if (!p.image) throw new AppError('invalid_params', { detail: 'image' })
          id = await repo.insertBanner(q, {
            image: p.image,
            link: p.link ?? '',
            sort: p.sort ?? 0,
            published: p.published ?? true,
          })
        } else {
          id = before.id
          const { image, link, sort, published } = before
          await repo.updateBanner(
            q,
            id,
            mergeBase(
              { image, link, sort, published },
              { image: p.image, link: p.link, sort: p.sort, published: p.published },
            ),
          )
        }
        const text = mergeText(before?.translations[p.lang], { title: p.title }, { title: '' })
        if (text) await repo.upsertText(q, 'banner', id, p.lang, text)
        const after = found(await repo.adminBanner(q, id))
        await audit(q, operatorId, before ? 'banner_update' : 'banner_create', before, after)
        return after
      })
    },

    saveNews(operatorId: number, p: SaveNews): Promise<AdminNews> {
      return inTransaction(pool, async (q) => {
        const before = p.id === undefined ? undefined : found(await repo.adminNews(q, p.id, true))
        let id: number
        if (!before) {
          checkNewItem(p.lang, p.title)
          id = await repo.insertNews(q, {
            type: p.type ?? 1,
            image: p.image ?? '',
            published: p.published ?? true,
          })
        } else {
          id = before.id
          const { type, image, published } = before
          await repo.updateNews(
            q,
            id,
            mergeBase(
              { type, image, published },
              { type: p.type, image: p.image, published: p.published },
            ),
          )
        }
        const text = mergeText(
          before?.translations[p.lang],
          { title: p.title, summary: p.summary, content: p.content },
          EMPTY_TEXT,
        )
        if (text) await repo.upsertText(q, 'news', id, p.lang, text)
        const after = found(await repo.adminNews(q, id))
        await audit(q, operatorId, before ? 'news_update' : 'news_create', before, after)
        return after
      })
    },

    saveSchool(operatorId: number, p: SaveSchool): Promise<AdminSchoolItem> {
      return inTransaction(pool, async (q) => {
        const before = p.id === undefined ? undefined : found(await repo.adminSchool(q, p.id, true))
        const videoUrl = p.videoUrl === '' ? null : p.videoUrl
        let id: number
        if (!before) {
          checkNewItem(p.lang, p.title)
          const kind = p.kind ?? 'article'
          id = await repo.insertSchool(q, {
            kind,
            cover: p.cover ?? '',
            videoUrl: schoolVideo(kind, videoUrl ?? null),
            published: p.published ?? true,
          })
        } else {
          id = before.id
          const { kind, cover, published } = before
          const base = mergeBase(
            { kind, cover, published },
            { kind: p.kind, cover: p.cover, published: p.published },
          )
          const video = videoUrl === undefined ? before.videoUrl : videoUrl
          await repo.updateSchool(q, id, { ...base, videoUrl: schoolVideo(base.kind, video) })
        }
        const text: SchoolText | null = mergeText(
          before?.translations[p.lang],
          { title: p.title, summary: p.summary, content: p.content },
          EMPTY_TEXT,
        )
        if (text) await repo.upsertText(q, 'school', id, p.lang, text)
        const after = found(await repo.adminSchool(q, id))
        await audit(q, operatorId, before ? 'school_update' : 'school_create', before, after)
        return after
      })
    },

    deleteBanner(operatorId: number, id: number): Promise<AdminBanner> {
      return inTransaction(pool, async (q) => {
        const before = found(await repo.adminBanner(q, id, true))
        await repo.deleteItem(q, 'banner', id)
        await audit(q, operatorId, 'banner_delete', before, null)
        return before
      })
    },

    deleteNews(operatorId: number, id: number): Promise<AdminNews> {
      return inTransaction(pool, async (q) => {
        const before = found(await repo.adminNews(q, id, true))
        await repo.deleteItem(q, 'news', id)
        await audit(q, operatorId, 'news_delete', before, null)
        return before
      })
    },

    deleteSchool(operatorId: number, id: number): Promise<AdminSchoolItem> {
      return inTransaction(pool, async (q) => {
        const before = found(await repo.adminSchool(q, id, true))
        await repo.deleteItem(q, 'school', id)
        await audit(q, operatorId, 'school_delete', before, null)
        return before
      })
    },

    /** Removes one language version; that language then shows the Chinese one. */
    deleteTranslation(
      operatorId: number,
      p: { kind: ContentKind; id: number; lang: Lang },
    ): Promise<null> {
      checkRemovableLang(p.lang)
      const load = { banner: repo.adminBanner, news: repo.adminNews, school: repo.adminSchool }[
        p.kind
      ]
      return inTransaction(pool, async (q) => {
        const before = found(await load(q, p.id, true))
        if (!(await repo.deleteText(q, p.kind, p.id, p.lang))) throw new AppError('not_found')
        const after = found(await load(q, p.id))
        await audit(q, operatorId, `${p.kind}_translation_delete`, before, after)
        return null
      })
    },
  }
}

export type ContentService = ReturnType<typeof createContentService>
