import { UPLOAD_MAX_BYTES } from '@hope/api'
import { Jimp } from 'jimp'
import { describe, expect, test } from 'vitest'
import { checkImage, imageSize, sniffImageType, variantPlan } from './upload.rules.ts'

const WEBP_LOSSLESS = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64')

/** A lossy WebP header: RIFF, VP8 chunk, key frame start code, 14-bit sizes. */
function webpLossy(width: number, height: number): Buffer {
  const b = Buffer.alloc(40)
  b.write('RIFF', 0)
  b.writeUInt32LE(32, 4)
  b.write('WEBPVP8 ', 8)
  b.writeUInt32LE(20, 16)
  b.set([0x9d, 0x01, 0x2a], 23)
  b.writeUInt16LE(width, 26)
  b.writeUInt16LE(height, 28)
  return b
}

function webpExtended(width: number, height: number): Buffer {
  const b = Buffer.alloc(40)
  b.write('RIFF', 0)
  b.writeUInt32LE(32, 4)
  b.write('WEBPVP8X', 8)
  b.writeUInt32LE(10, 16)
  b.writeUIntLE(width - 1, 24, 3)
  b.writeUIntLE(height - 1, 27, 3)
  return b
}

const picture = (width: number, height: number) => new Jimp({ width, height, color: 0x112233ff })

describe('image type and size from the bytes', () => {
  test('PNG, JPEG and the three WebP forms', async () => {
    const png = await picture(321, 123).getBuffer('image/png')
    const jpeg = await picture(640, 17).getBuffer('image/jpeg')
    expect(sniffImageType(png)).toBe('image/png')
    expect(imageSize(png, 'image/png')).toEqual({ width: 321, height: 123 })
    expect(sniffImageType(jpeg)).toBe('image/jpeg')
    expect(imageSize(jpeg, 'image/jpeg')).toEqual({ width: 640, height: 17 })
    expect(sniffImageType(WEBP_LOSSLESS)).toBe('image/webp')
    expect(imageSize(WEBP_LOSSLESS, 'image/webp')).toEqual({ width: 1, height: 1 })
    expect(imageSize(webpLossy(750, 300), 'image/webp')).toEqual({ width: 750, height: 300 })
    expect(imageSize(webpExtended(5000, 20), 'image/webp')).toEqual({ width: 5000, height: 20 })
  })

  test('anything else is no image', () => {
    for (const bytes of [
      Buffer.from('GIF89a'),
      Buffer.from('<svg/>'),
      Buffer.from('RIFF0000WAVE'),
      Buffer.alloc(0),
    ])
      expect(sniffImageType(bytes)).toBeNull()
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 'image/jpeg')).toBeNull()
  })
})

describe('checkImage', () => {
  test('takes an image whose bytes agree with its declared type', async () => {
    const png = await picture(10, 5).getBuffer('image/png')
    expect(checkImage(png, 'image/png; charset=binary')).toEqual({
      type: 'image/png',
      ext: 'png',
      width: 10,
      height: 5,
    })
  })

  test('refuses a mismatch, a non-image, too many bytes or pixels', async () => {
    const png = await picture(10, 5).getBuffer('image/png')
    const refusal = (body: unknown, type?: string) => {
      try {
        checkImage(body, type)
        return null
      } catch (e) {
        return (e as { reason: string }).reason
      }
    }
    expect(refusal(png, 'image/jpeg')).toBe('image_type_invalid')
    expect(refusal(png, undefined)).toBe('image_type_invalid')
    expect(refusal({}, 'image/png')).toBe('image_type_invalid')
    expect(refusal(Buffer.alloc(UPLOAD_MAX_BYTES + 1), 'image/png')).toBe('image_too_large')
    expect(refusal(webpExtended(4097, 10), 'image/webp')).toBe('image_too_large')
    expect(refusal(webpExtended(4096, 4096), 'image/webp')).toBeNull()
    expect(refusal(webpLossy(0, 10), 'image/webp')).toBe('image_type_invalid')
  })
})

describe('variantPlan', () => {
  test('scales down to each width, never up; WebP is kept as it is', () => {
    expect(variantPlan('image/png', 1000)).toEqual([
      { width: 375, resize: true },
      { width: 750, resize: true },
    ])
    expect(variantPlan('image/jpeg', 600)).toEqual([
      { width: 375, resize: true },
      { width: 750, resize: false },
    ])
    expect(variantPlan('image/jpeg', 375)).toEqual([
      { width: 375, resize: false },
      { width: 750, resize: false },
    ])
    expect(variantPlan('image/webp', 2000)).toEqual([])
  })
})
