import { UPLOAD_MAX_BYTES, UPLOAD_TYPES, UPLOAD_VARIANT_WIDTHS, type UploadType } from '@hope/api'
import { AppError } from '../../lib/app-error.ts'

/** Longest side and most pixels an upload may have: decoding is what costs memory, not bytes. */
export const MAX_SIDE_PX = 4096
export const MAX_PIXELS = 4096 * 4096

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) =>
  sig.every((b, i) => bytes[at + i] === b)

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0))

/** The image type the bytes start with (their magic number), whatever the sender claimed. */
export function sniffImageType(bytes: Uint8Array): UploadType | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png'
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp'
  return null
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8)
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16)
const u32be = (b: Uint8Array, i: number) =>
  ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0

function pngSize(b: Uint8Array) {
  // The first chunk is IHDR: width and height as big-endian 32-bit numbers.
  if (b.length < 24 || !startsWith(b, ascii('IHDR'), 12)) return null
  return { width: u32be(b, 16), height: u32be(b, 20) }
}

/** Start-of-frame markers (baseline, progressive, …) carry the size; 0xC4, 0xC8, 0xCC do not. */
const isStartOfFrame = (m: number) =>
  m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc

function jpegSize(b: Uint8Array) {
  let i = 2
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null
    const marker = b[i + 1]!
    if (marker === 0xff) {
      i += 1 // fill byte
      continue
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2 // markers without a length
      continue
    }
    if (isStartOfFrame(marker)) return { width: u16be(b, i + 7), height: u16be(b, i + 5) }
    if (marker === 0xd9 || marker === 0xda) return null // end of image or scan data before a frame
    i += 2 + u16be(b, i + 2)
  }
  return null
}

function webpSize(b: Uint8Array) {
  if (b.length < 30) return null
  if (startsWith(b, ascii('VP8 '), 12)) {
    // Lossy: a key frame starts with 9D 01 2A, then 14-bit width and height.
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23)) return null
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff }
  }
  if (startsWith(b, ascii('VP8L'), 12)) {
    // Lossless: signature 0x2F, then 14-bit width-1 and height-1, packed.
    if (b[20] !== 0x2f) return null
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
  }
  if (startsWith(b, ascii('VP8X'), 12)) {
    // Extended: 24-bit canvas width-1 and height-1.
    return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 }
  }
  return null
}

/** Width and height read from the image's header, without decoding it; null when unreadable. */
export function imageSize(
  bytes: Uint8Array,
  type: UploadType,
): { width: number; height: number } | null {
  const size =
    type === 'image/png'
      ? pngSize(bytes)
      : type === 'image/jpeg'
        ? jpegSize(bytes)
        : webpSize(bytes)
  return size && size.width > 0 && size.height > 0 ? size : null
}

export interface CheckedImage {
  type: UploadType
  ext: (typeof UPLOAD_TYPES)[UploadType]
  width: number
  height: number
}

/**
 * Accepts a body only when it is a PNG, JPEG or WebP by its own bytes, agrees with the declared
 * Content-Type, and is within the byte and pixel limits.
 */
export function checkImage(body: unknown, declaredType: string | undefined): CheckedImage {
  if (!(body instanceof Uint8Array) || body.length === 0) throw new AppError('image_type_invalid')
  if (body.length > UPLOAD_MAX_BYTES) throw new AppError('image_too_large')
  const type = sniffImageType(body)
  const declared = declaredType?.split(';')[0]?.trim().toLowerCase()
  if (!type || declared !== type) throw new AppError('image_type_invalid')
  const size = imageSize(body, type)
  if (!size) throw new AppError('image_type_invalid')
  if (
    size.width > MAX_SIDE_PX ||
    size.height > MAX_SIDE_PX ||
    size.width * size.height > MAX_PIXELS
  )
    throw new AppError('image_too_large', { detail: `${size.width}x${size.height}` })
  return { type, ext: UPLOAD_TYPES[type], ...size }
}

/**
 * The resized copies to make: one per variant width, scaled down to it; an image narrower than
 * a width is stored at that width's name as it is (never scaled up).
 */
export function variantPlan(type: UploadType, width: number): { width: number; resize: boolean }[] {
  if (type === 'image/webp') return []
  return UPLOAD_VARIANT_WIDTHS.map((w) => ({ width: w, resize: w < width }))
}
