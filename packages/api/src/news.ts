import { z } from 'zod'
import { PageParams, intParam } from './common.ts'
import { NEWS_TYPE_CODES, type NewsTypeCode } from './content-constants.ts'
import { ContentFlag, ContentId, ContentLang, MediaUrl, TextField } from './content.ts'
import type { Lang } from './lang.ts'

const NewsType = z
  .enum(NEWS_TYPE_CODES.map(String) as [string, ...string[]])
  .transform((v) => Number(v) as NewsTypeCode)

/** `main/news`: published news, newest first, of one type or all. */
export const NewsParams = PageParams.extend({ type: NewsType.optional() })
export type NewsParams = z.input<typeof NewsParams>

/** `main/newInfo`: one published article. */
export const NewsInfoParams = z.object({ id: intParam(1, 999_999_999) })
export type NewsInfoParams = z.input<typeof NewsInfoParams>

/**
 * A news article in the request's language, or in Chinese when it has no version in that
 * language (`lang` says which one was served).
 */
export interface NewsItem {
  id: number
  type: NewsTypeCode
  title: string
  summary: string
  content: string
  image: string
  /** The version served: another language than the asked one means it is not translated yet. */
  lang: Lang
  publishedAt: string
}

/** The texts of one language version of an article. */
export interface NewsText {
  title: string
  summary: string
  content: string
}

/** An article as operators edit it: every language version, published or not. */
export interface AdminNews {
  id: number
  type: NewsTypeCode
  image: string
  published: boolean
  publishedAt: string
  updatedAt: string
  translations: Partial<Record<Lang, NewsText>>
}

/**
 * `admin/saveNews`: without `id` creates an article (its Chinese version first); with `id`
 * changes the fields given. `title`/`summary`/`content` are the version in `lang`.
 */
export const SaveNewsParams = z.object({
  id: ContentId.optional(),
  lang: ContentLang,
  title: TextField(120).optional(),
  summary: TextField(300, 0).optional(),
  content: TextField(6000, 0).optional(),
  type: NewsType.optional(),
  image: MediaUrl.or(z.literal('')).optional(),
  published: ContentFlag.optional(),
})
export type SaveNewsParams = z.input<typeof SaveNewsParams>

export const AdminNewsListParams = PageParams.extend({ type: NewsType.optional() })
