import { z } from 'zod'
import { PageParams, intParam } from './common.ts'
import {
  SCHOOL_KINDS,
  parseUploadUrl,
  type SchoolKind,
  type UploadType,
} from './content-constants.ts'
import { LANGS, type Lang } from './lang.ts'

/** The id of a banner, article or school item. */
export const ContentId = intParam(1, 999_999_999)

/** The language version an operator writes; Chinese, the fallback of every other, by default. */
export const ContentLang = z.enum(LANGS).default('zhcn')

export const ContentFlag = z.enum(['true', 'false']).transform((v) => v === 'true')

/** A trimmed text of at most `max` characters (at least `min`, 1 unless told). */
export const TextField = (max: number, min = 1) => z.string().trim().min(min).max(max)

const isHttpsUrl = (v: string): boolean => {
  if (/\s/.test(v) || !URL.canParse(v)) return false
  const url = new URL(v)
  return url.protocol === 'https:' && url.hostname !== ''
}

/** An uploaded or stored file (`/uploads/<hash>.<ext>`) or an https address. */
export const MediaUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => parseUploadUrl(v) !== null || isHttpsUrl(v))

/** A banner's target: nothing, an in-app route (`/stake`, `/news/3`) or an https address. */
export const BannerLink = z
  .string()
  .trim()
  .max(500)
  .refine((v) => v === '' || /^\/(?!\/)[\w\-./?=&%#]*$/.test(v) || isHttpsUrl(v))

/** A banner in the request's language, or in Chinese when it has no version in that language. */
export interface BannerItem {
  id: number
  image: string
  title: string
  link: string
  sort: number
  /** The version served: another language than the asked one means it is not translated yet. */
  lang: Lang
}

/** A banner as operators edit it: every language version, published or not. */
export interface AdminBanner {
  id: number
  image: string
  link: string
  sort: number
  published: boolean
  updatedAt: string
  translations: Partial<Record<Lang, { title: string }>>
}

/**
 * `admin/saveBanner`: without `id` creates a banner (its Chinese title and an image are
 * needed); with `id` changes the fields given. `title` is the version in `lang`.
 */
export const SaveBannerParams = z.object({
  id: ContentId.optional(),
  lang: ContentLang,
  title: TextField(60).optional(),
  image: MediaUrl.optional(),
  link: BannerLink.optional(),
  sort: intParam(0, 9999).optional(),
  published: ContentFlag.optional(),
})
export type SaveBannerParams = z.input<typeof SaveBannerParams>

const SchoolKindParam = z.enum(SCHOOL_KINDS)

/** `main/school`: published business school items, newest first, of one kind or both. */
export const SchoolParams = PageParams.extend({ kind: SchoolKindParam.optional() })
export type SchoolParams = z.input<typeof SchoolParams>

export const SchoolInfoParams = z.object({ id: ContentId })
export type SchoolInfoParams = z.input<typeof SchoolInfoParams>

/** A business school article or video in the request's language (Chinese as the fallback). */
export interface SchoolItem {
  id: number
  kind: SchoolKind
  title: string
  summary: string
  cover: string
  /** The video to play; null for an article. */
  videoUrl: string | null
  content: string
  /** The version served: another language than the asked one means it is not translated yet. */
  lang: Lang
  publishedAt: string
}

export interface SchoolText {
  title: string
  summary: string
  content: string
}

export interface AdminSchoolItem {
  id: number
  kind: SchoolKind
  cover: string
  videoUrl: string | null
  published: boolean
  publishedAt: string
  updatedAt: string
  translations: Partial<Record<Lang, SchoolText>>
}

/**
 * `admin/saveSchool`: without `id` creates an item (its Chinese version first; a video needs
 * `videoUrl`); with `id` changes the fields given. Texts are the version in `lang`.
 */
export const SaveSchoolParams = z.object({
  id: ContentId.optional(),
  lang: ContentLang,
  title: TextField(120).optional(),
  summary: TextField(300, 0).optional(),
  content: TextField(6000, 0).optional(),
  kind: SchoolKindParam.optional(),
  cover: MediaUrl.or(z.literal('')).optional(),
  videoUrl: MediaUrl.or(z.literal('')).optional(),
  published: ContentFlag.optional(),
})
export type SaveSchoolParams = z.input<typeof SaveSchoolParams>

export const AdminSchoolListParams = PageParams

/** Delete a banner, article or school item with all its language versions. */
export const ContentIdParams = z.object({ id: ContentId })

export const CONTENT_KINDS = ['banner', 'news', 'school'] as const
export type ContentKind = (typeof CONTENT_KINDS)[number]

/** Remove one language version (never the Chinese one: it is every other's fallback). */
export const DeleteTranslationParams = z.object({
  kind: z.enum(CONTENT_KINDS),
  id: ContentId,
  lang: z.enum(LANGS),
})

/** A stored image: the original and its resized copies (none for WebP). */
export interface UploadedImage {
  url: string
  type: UploadType
  width: number
  height: number
  bytes: number
  variants: { width: number; url: string }[]
}
