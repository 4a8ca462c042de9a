import {
  UPLOAD_MAX_BYTES,
  UPLOAD_TYPES,
  type AdminBanner,
  type AdminNews,
  type AdminSchoolItem,
  type ContentKind,
  type Lang,
  type NewsTypeCode,
  type SchoolKind,
  type UploadedImage,
} from '@hope/api'
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../../../lib/request.ts'
import type { MutationOptions } from '../../../lib/mutation.ts'
import { planTranslations, textsOf, type TranslationDrafts } from '../content.rules.ts'

export const contentKeys = {
  all: ['content'] as const,
  kind: (kind: ContentKind) => [...contentKeys.all, kind] as const,
  banners: () => contentKeys.kind('banner'),
  news: (pageNum: number, pageSize: number) => [...contentKeys.kind('news'), pageNum, pageSize],
  school: (pageNum: number, pageSize: number) => [...contentKeys.kind('school'), pageNum, pageSize],
}

/** `admin/banners`: every banner with all its language versions. */
export function bannersOptions() {
  return queryOptions({
    queryKey: contentKeys.banners(),
    queryFn: ({ signal }) => request('admin/banners', {}, { signal }),
  })
}

/** `admin/newsList`: every article, published or not, newest first. */
export function newsListOptions(pageNum: number, pageSize: number) {
  return queryOptions({
    queryKey: contentKeys.news(pageNum, pageSize),
    queryFn: ({ signal }) => request('admin/newsList', { pageNum, pageSize }, { signal }),
    placeholderData: keepPreviousData,
  })
}

/** `admin/schoolList`: every business school item, newest first. */
export function schoolListOptions(pageNum: number, pageSize: number) {
  return queryOptions({
    queryKey: contentKeys.school(pageNum, pageSize),
    queryFn: ({ signal }) => request('admin/schoolList', { pageNum, pageSize }, { signal }),
    placeholderData: keepPreviousData,
  })
}

const flag = (v: boolean): 'true' | 'false' => (v ? 'true' : 'false')

export interface BannerDraft {
  image: string
  link: string
  sort: number
  published: boolean
  translations: TranslationDrafts
}

export interface NewsDraft {
  type: NewsTypeCode
  image: string
  published: boolean
  translations: TranslationDrafts
}

export interface SchoolDraft {
  kind: SchoolKind
  cover: string
  videoUrl: string
  published: boolean
  translations: TranslationDrafts
}

/** The other language versions after the Chinese one: new or changed saved, cleared removed. */
async function saveVersions(
  kind: ContentKind,
  id: number,
  before: TranslationDrafts,
  after: TranslationDrafts,
  saveOne: (lang: Lang) => Promise<unknown>,
): Promise<void> {
  const plan = planTranslations(before, after)
  for (const lang of plan.save) await saveOne(lang)
  for (const lang of plan.remove) await request('admin/deleteTranslation', { kind, id, lang })
}

/**
 * Creates or changes a banner: the Chinese title with the shared fields first (a new banner
 * gets its id there), then the other language versions one by one.
 */
export async function saveBanner(draft: BannerDraft, before?: AdminBanner): Promise<AdminBanner> {
  const saved = await request('admin/saveBanner', {
    id: before?.id,
    lang: 'zhcn',
    title: textsOf(draft.translations.zhcn).title,
    image: draft.image.trim(),
    link: draft.link.trim(),
    sort: draft.sort,
    published: flag(draft.published),
  })
  await saveVersions('banner', saved.id, before?.translations ?? {}, draft.translations, (lang) =>
    request('admin/saveBanner', {
      id: saved.id,
      lang,
      title: textsOf(draft.translations[lang]).title,
    }),
  )
  return saved
}

/** Creates or changes an article: Chinese with the shared fields first, then the others. */
export async function saveNews(draft: NewsDraft, before?: AdminNews): Promise<AdminNews> {
  const saved = await request('admin/saveNews', {
    id: before?.id,
    lang: 'zhcn',
    ...textsOf(draft.translations.zhcn),
    type: String(draft.type),
    image: draft.image.trim(),
    published: flag(draft.published),
  })
  await saveVersions('news', saved.id, before?.translations ?? {}, draft.translations, (lang) =>
    request('admin/saveNews', { id: saved.id, lang, ...textsOf(draft.translations[lang]) }),
  )
  return saved
}

/** Creates or changes a business school item: Chinese with the shared fields first. */
export async function saveSchool(
  draft: SchoolDraft,
  before?: AdminSchoolItem,
): Promise<AdminSchoolItem> {
  const saved = await request('admin/saveSchool', {
    id: before?.id,
    lang: 'zhcn',
    ...textsOf(draft.translations.zhcn),
    kind: draft.kind,
    cover: draft.cover.trim(),
    videoUrl: draft.kind === 'video' ? draft.videoUrl.trim() : '',
    published: flag(draft.published),
  })
  await saveVersions('school', saved.id, before?.translations ?? {}, draft.translations, (lang) =>
    request('admin/saveSchool', { id: saved.id, lang, ...textsOf(draft.translations[lang]) }),
  )
  return saved
}

/** Publishes or withdraws an item from its list's switch. */
export function setPublished(kind: ContentKind, id: number, published: boolean): Promise<unknown> {
  const params = { id, published: flag(published) }
  if (kind === 'banner') return request('admin/saveBanner', params)
  if (kind === 'news') return request('admin/saveNews', params)
  return request('admin/saveSchool', params)
}

/** Deletes an item with all its language versions. */
export function deleteContent(kind: ContentKind, id: number): Promise<unknown> {
  if (kind === 'banner') return request('admin/deleteBanner', { id })
  if (kind === 'news') return request('admin/deleteNews', { id })
  return request('admin/deleteSchool', { id })
}

type Options<V> = MutationOptions<unknown, V>

/** Any change of a kind refreshes that kind's lists (a partial save too). */
export function useContentMutation<V>(
  kind: ContentKind,
  fn: (variables: V) => Promise<unknown>,
  { onSettled, ...options }: Options<V> = {},
) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn: fn,
    onSettled: (...args) => {
      void queryClient.invalidateQueries({ queryKey: contentKeys.kind(kind) })
      return onSettled?.(...args)
    },
  })
}

export class UploadRefused extends Error {
  readonly why: 'type' | 'size'

  constructor(why: 'type' | 'size') {
    super(`upload refused: ${why}`)
    this.why = why
  }
}

/**
 * `admin/upload`: the image bytes as the raw body (PNG, JPEG or WebP, at most 2 MB). The type
 * and size are checked here first so a wrong file is refused before it is sent.
 */
export function uploadImage(file: File): Promise<UploadedImage> {
  if (!Object.hasOwn(UPLOAD_TYPES, file.type)) return Promise.reject(new UploadRefused('type'))
  if (file.size > UPLOAD_MAX_BYTES) return Promise.reject(new UploadRefused('size'))
  return request('admin/upload', {}, { body: file })
}
