import { describe, expect, test } from 'vitest'
import { BannerLink, MediaUrl } from './content.ts'
import { SaveNewsParams } from './news.ts'
import { imageSrcSet, parseUploadUrl, uploadUrl } from './content-constants.ts'

const HASH = 'ab'.repeat(32)

describe('upload names', () => {
  test('a stored file is named by its hash, a resized copy by its width too', () => {
    expect(uploadUrl(HASH, 'png')).toBe(`/uploads/${HASH}.png`)
    expect(uploadUrl(HASH, 'jpg', 375)).toBe(`/uploads/${HASH}-375w.jpg`)
    expect(parseUploadUrl(`/uploads/${HASH}-750w.png`)).toEqual({
      hash: HASH,
      ext: 'png',
      width: 750,
    })
    for (const bad of [
      `/uploads/${HASH}.gif`,
      `/uploads/${HASH}-500w.png`,
      `/uploads/${HASH.slice(1)}.png`,
      `/uploads/../${HASH}.png`,
      `https://x.example/uploads/${HASH}.png`,
    ])
      expect(parseUploadUrl(bad), bad).toBeNull()
  })

  test('PNG and JPEG uploads have a srcset of their copies; anything else none', () => {
    expect(imageSrcSet(`/uploads/${HASH}.png`)).toBe(
      `/uploads/${HASH}-375w.png 375w, /uploads/${HASH}-750w.png 750w`,
    )
    expect(imageSrcSet(`/uploads/${HASH}.webp`)).toBe('')
    expect(imageSrcSet(`/uploads/${HASH}.svg`)).toBe('')
    expect(imageSrcSet(`/uploads/${HASH}-375w.png`)).toBe('')
    expect(imageSrcSet('https://cdn.example.com/a.png')).toBe('')
  })
})

describe('content params', () => {
  test('media is an upload or an https address', () => {
    expect(MediaUrl.safeParse(`/uploads/${HASH}.png`).success).toBe(true)
    expect(MediaUrl.safeParse('https://cdn.example.com/a.mp4').success).toBe(true)
    for (const bad of [
      'http://cdn.example.com/a.png',
      '/etc/passwd',
      'javascript:alert(1)',
      'https://',
    ])
      expect(MediaUrl.safeParse(bad).success, bad).toBe(false)
  })

  test('a banner links nowhere, into the app or to an https address', () => {
    for (const ok of ['', '/stake', '/news/3', '/news?type=industry', 'https://hope.example/a'])
      expect(BannerLink.safeParse(ok).success, ok).toBe(true)
    for (const bad of [
      '//evil.example',
      'stake',
      'javascript:alert(1)',
      'http://a.example',
      '/a b',
    ])
      expect(BannerLink.safeParse(bad).success, bad).toBe(false)
  })

  test('an article is written in Chinese unless told, with a known type', () => {
    expect(SaveNewsParams.parse({ title: ' 标题 ', type: '2' })).toEqual({
      lang: 'zhcn',
      title: '标题',
      type: 2,
    })
    expect(SaveNewsParams.safeParse({ title: 'x', type: '3' }).success).toBe(false)
    expect(SaveNewsParams.safeParse({ title: 'x'.repeat(121) }).success).toBe(false)
  })
})
