import type { Lang, SchoolKind } from '@hope/api'
import { AppError } from '../../lib/app-error.ts'

/**
 * How an operator's save changes an item: the base fields given replace the stored ones, and
 * the texts given replace those of the one language version they are written in. A new item
 * starts with its Chinese version (every other language falls back to it); a new language
 * version needs a title.
 */

type Patch<T> = { [K in keyof T]?: T[K] | undefined }

/** The texts of one language version after a save, or null when the save carries none. */
export function mergeText<T extends { title: string }>(
  existing: T | undefined,
  patch: Patch<T>,
  empty: T,
): T | null {
  const given = Object.fromEntries(
    Object.entries(patch).filter(([, v]) => v !== undefined),
  ) as Partial<T>
  if (Object.keys(given).length === 0) return null
  const merged = { ...empty, ...existing, ...given }
  if (!merged.title) throw new AppError('content_title_required')
  return merged
}

/** A new item is written in Chinese first, with a title. */
export function checkNewItem(lang: Lang, title: string | undefined): void {
  if (lang !== 'zhcn') throw new AppError('content_zhcn_required')
  if (!title) throw new AppError('content_title_required')
}

/** The Chinese version is what every other language falls back to: it stays. */
export function checkRemovableLang(lang: Lang): void {
  if (lang === 'zhcn') throw new AppError('content_zhcn_required')
}

/** Base fields after a save: each given field replaces the stored one. */
export function mergeBase<T extends object>(existing: T, patch: Patch<T>): T {
  const out = { ...existing }
  for (const [k, v] of Object.entries(patch))
    if (v !== undefined) (out as Record<string, unknown>)[k] = v
  return out
}

/** A video needs something to play; an article carries no video. */
export function schoolVideo(kind: SchoolKind, videoUrl: string | null): string | null {
  if (kind === 'article') return null
  if (!videoUrl) throw new AppError('invalid_params', { detail: 'videoUrl' })
  return videoUrl
}
