// Plain constants and helpers of the content contract (no zod), safe for the web's first bundle.
import type { BannerItem } from './content.ts'
import type { Lang } from './lang.ts'
import type { OutflowSignaturePolicy } from './outflow.ts'

/** News types by code; each key is translated under `news.types` in the web app. */
export const NEWS_TYPES = {
  1: 'announcement',
  2: 'industry',
} as const
export type NewsTypeCode = keyof typeof NEWS_TYPES
export type NewsTypeName = (typeof NEWS_TYPES)[NewsTypeCode]
export const NEWS_TYPE_CODES = Object.keys(NEWS_TYPES).map(Number) as NewsTypeCode[]

/** Business school items are articles or videos. */
export const SCHOOL_KINDS = ['article', 'video'] as const
export type SchoolKind = (typeof SCHOOL_KINDS)[number]

/** The image types `admin/upload` takes, with the file extension each is stored under. */
export const UPLOAD_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
} as const
export type UploadType = keyof typeof UPLOAD_TYPES

/** Largest image body `admin/upload` accepts. */
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024

/** Widths of the resized copies made of every PNG and JPEG upload (`<hash>-375w.png`). */
export const UPLOAD_VARIANT_WIDTHS = [375, 750] as const

/** Extensions served under `/uploads/`: uploaded images, and the demo seed's SVG and MP4 files. */
const SERVED_EXTENSIONS = ['png', 'jpg', 'webp', 'svg', 'mp4'] as const
type ServedExtension = (typeof SERVED_EXTENSIONS)[number]
/** Extensions whose uploads have resized copies. */
const RESIZED_EXTENSIONS: ReadonlySet<string> = new Set(['png', 'jpg'])

/** A stored file's name: its content hash (sha-256, hex), a width for a resized copy, the extension. */
export const UPLOAD_FILE_NAME = new RegExp(
  `^([0-9a-f]{64})(?:-(${UPLOAD_VARIANT_WIDTHS.join('|')})w)?\\.(${SERVED_EXTENSIONS.join('|')})$`,
)

/**
 * The public path of a stored file; `width` names one of its resized copies.
 * @example uploadUrl('ab…', 'png', 375) // '/uploads/ab…-375w.png'
 */
export function uploadUrl(hash: string, ext: ServedExtension, width?: number): string {
  return `/uploads/${hash}${width ? `-${width}w` : ''}.${ext}`
}

/** The parts of an `/uploads/…` path, or null when it is not one. */
export function parseUploadUrl(
  url: string,
): { hash: string; ext: ServedExtension; width: number | undefined } | null {
  if (!url.startsWith('/uploads/')) return null
  const m = UPLOAD_FILE_NAME.exec(url.slice('/uploads/'.length))
  if (!m) return null
  return { hash: m[1]!, ext: m[3] as ServedExtension, width: m[2] ? Number(m[2]) : undefined }
}

/** Home banner pictures are drawn 750×300 (5:2), as wide as the screen up to 750 px. */
export const BANNER_WIDTH = 750
export const BANNER_HEIGHT = 300
export const BANNER_SIZES = `(max-width: ${BANNER_WIDTH}px) 100vw, ${BANNER_WIDTH}px`

/**
 * A `srcset` for an uploaded PNG or JPEG (its resized copies plus the original); empty for
 * anything else, which is then shown as it is.
 * @example imageSrcSet('/uploads/ab….png') // '/uploads/ab…-375w.png 375w, /uploads/ab…-750w.png 750w'
 */
export function imageSrcSet(url: string): string {
  const parts = parseUploadUrl(url)
  if (!parts || parts.width !== undefined || !RESIZED_EXTENSIONS.has(parts.ext)) return ''
  return UPLOAD_VARIANT_WIDTHS.map((w) => `${uploadUrl(parts.hash, parts.ext, w)} ${w}w`).join(', ')
}

/**
 * What the web app's shell (index.html as the server sends it) carries for the first screen,
 * as JSON in the element with id `SHELL_BOOT_ELEMENT_ID`: the published banners in every
 * language, as `main/bannnerInfo` answers them, and the public settings the app acts on before
 * it asks anything.
 */
export interface ShellBoot {
  banners: Partial<Record<Lang, BannerItem[]>>
  /**
   * The setting `outflowSignature`: the app has the wallet sign an outflow before sending it
   * whenever `outflowNeedsSignature` says so under this policy.
   */
  outflowSignature?: OutflowSignaturePolicy
  /** The first banner's picture, which the shell starts loading for a signed-in home. */
  picture?: { src: string; srcset: string; sizes: string }
}

export const SHELL_BOOT_ELEMENT_ID = 'hope-boot'
