import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { BannerItem, UploadedImage } from '@hope/api'
import { Jimp } from 'jimp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildApp } from '../../app.ts'
import { loadConfig } from '../../config.ts'
import { seedDemo } from '../../db/seed.ts'
import {
  call,
  databaseTargets,
  newOperator,
  registerUser,
  useTestApp,
} from '../../testing/index.ts'
import { imageSize } from './upload.rules.ts'

/** A 1×1 lossless WebP. */
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64')

async function picture(width: number, height: number, type: 'image/png' | 'image/jpeg') {
  const image = new Jimp({ width, height, color: 0x4a5cffff })
  for (let x = 0; x < width; x += 7) image.setPixelColor(0xffd66bff, x, (x * 3) % height)
  return type === 'image/png' ? image.getBuffer('image/png') : image.getBuffer('image/jpeg')
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

describe.each(databaseTargets())('image upload on $name', (target) => {
  let dataDir: string
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-uploads-'))
  })
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
  const t = useTestApp(target, () => ({ env: { DATA_DIR: dataDir } }))
  let editor: string
  let support: string
  let member: string

  const upload = (body: Buffer | string | undefined, type: string | undefined, token = editor) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/upload',
      headers: {
        ...(type ? { 'content-type': type } : {}),
        ...(token ? { token } : {}),
        lan: 'en_US',
      },
      ...(body === undefined ? {} : { payload: body }),
    })
  const uploadsDir = () => path.join(dataDir, 'uploads')
  const stored = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).sort() : [])

  beforeAll(async () => {
    editor = await newOperator(t.app, 'cms', 'content')
    support = await newOperator(t.app, 'desk', 'support')
    member = (await registerUser(t.app)).token
  })

  test('a PNG is stored by its hash with 375w and 750w copies, served for a year with the security headers', async () => {
    const png = await picture(1000, 400, 'image/png')
    const res = await upload(png, 'image/png')
    expect(res.statusCode).toBe(200)
    const hash = sha256(png)
    const data = res.json().data as UploadedImage
    expect(data).toEqual({
      url: `/uploads/${hash}.png`,
      type: 'image/png',
      width: 1000,
      height: 400,
      bytes: png.length,
      variants: [
        { width: 375, url: `/uploads/${hash}-375w.png` },
        { width: 750, url: `/uploads/${hash}-750w.png` },
      ],
    })

    const small = await t.app.inject({ method: 'GET', url: data.variants[0]!.url })
    expect(small.statusCode).toBe(200)
    expect(small.headers['content-type']).toBe('image/png')
    expect(small.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(small.headers['x-content-type-options']).toBe('nosniff')
    expect(small.headers['content-security-policy']).toContain("default-src 'self'")
    expect(imageSize(small.rawPayload, 'image/png')).toEqual({ width: 375, height: 150 })
    const original = await t.app.inject({ method: 'GET', url: data.url })
    expect(original.rawPayload.equals(png)).toBe(true)

    const again = await upload(png, 'image/png')
    expect(again.json().data.url).toBe(data.url)
    const audit = await t.db.pool.query<{ action: string; after: UploadedImage }>(
      `SELECT action, after FROM operator_audit WHERE action = 'image_upload' ORDER BY id`,
    )
    expect(audit.rows.map((r) => r.after.url)).toEqual([data.url, data.url])
  })

  test('an image narrower than a copy is kept as it is under that name; WebP gets no copies', async () => {
    const jpeg = await picture(500, 300, 'image/jpeg')
    const res = (await upload(jpeg, 'image/jpeg')).json().data as UploadedImage
    expect(res).toMatchObject({ type: 'image/jpeg', width: 500, height: 300 })
    expect(res.url).toMatch(/\.jpg$/)
    const resized = await t.app.inject({ method: 'GET', url: res.variants[0]!.url })
    expect(imageSize(resized.rawPayload, 'image/jpeg')).toEqual({ width: 375, height: 225 })
    const kept = await t.app.inject({ method: 'GET', url: res.variants[1]!.url })
    expect(kept.rawPayload.equals(jpeg)).toBe(true)

    const webp = (await upload(WEBP, 'image/webp')).json().data as UploadedImage
    expect(webp).toMatchObject({ type: 'image/webp', width: 1, height: 1, variants: [] })
    const served = await t.app.inject({ method: 'GET', url: webp.url })
    expect(served.headers['content-type']).toBe('image/webp')
  })

  test('refuses what is not a PNG, JPEG or WebP by its bytes, or is too large, and stores nothing', async () => {
    const files = stored()
    const png = await picture(20, 20, 'image/png')
    const jpeg = await picture(20, 20, 'image/jpeg')
    const gif = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64')
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    )
    const hugeSides = Buffer.from(png)
    hugeSides.writeUInt32BE(10_000, 16) // IHDR width
    const cases: [Buffer | string | undefined, string | undefined, string][] = [
      [gif, 'image/gif', 'image_type_invalid'],
      [svg, 'image/svg+xml', 'image_type_invalid'],
      [svg, 'image/png', 'image_type_invalid'],
      [jpeg, 'image/png', 'image_type_invalid'],
      [Buffer.from('not an image at all'), 'image/jpeg', 'image_type_invalid'],
      [png.subarray(0, 12), 'image/png', 'image_type_invalid'],
      [png.subarray(0, 40), 'image/png', 'image_type_invalid'],
      [jpeg.subarray(0, jpeg.length - 40), 'image/jpeg', 'image_type_invalid'],
      [undefined, undefined, 'image_type_invalid'],
      ['{}', 'application/json', 'image_type_invalid'],
      [Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]), 'image/png', 'image_too_large'],
      [hugeSides, 'image/png', 'image_too_large'],
    ]
    for (const [body, type, reason] of cases) {
      const res = await upload(body, type)
      expect([res.statusCode, res.json().reason], `${type}`).toEqual([400, reason])
    }
    const large = await upload(Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]), 'image/png')
    expect(large.json().msg).toBe('The image is too large: at most 2 MB and 4096 pixels a side')
    expect(stored()).toEqual(files)
  })

  test('only admin and content operators may upload', async () => {
    const png = await picture(10, 10, 'image/png')
    const bySupport = await upload(png, 'image/png', support)
    expect([bySupport.statusCode, bySupport.json().reason]).toEqual([403, 'forbidden'])
    const byMember = await upload(png, 'image/png', member)
    expect([byMember.statusCode, byMember.json().reason]).toEqual([401, 'session_expired'])
    const anonymous = await upload(png, 'image/png', '')
    expect([anonymous.statusCode, anonymous.json().reason]).toEqual([401, 'not_logged_in'])
    expect(stored().some((f) => f.startsWith(sha256(png)))).toBe(false)
  })

  test('names that are not stored images are not found', async () => {
    fs.mkdirSync(uploadsDir(), { recursive: true })
    fs.writeFileSync(path.join(uploadsDir(), 'notes.txt'), 'private')
    for (const url of [
      `/uploads/${'0'.repeat(64)}.png`,
      '/uploads/notes.txt',
      '/uploads/../package.json',
      '/uploads/%2e%2e/package.json',
      '/uploads/',
    ]) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(404)
      expect(res.body, url).not.toContain('private')
    }
  })

  test('the demo seed stores its pictures, and a path under /uploads never gets the app shell', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-dist-'))
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>HOPE</title>')
    const withShell = await buildApp({
      config: { ...loadConfig({ DATA_DIR: dataDir }), webDist: dist },
      database: t.db,
      logger: false,
    })
    try {
      await seedDemo(t.db.pool, { uploadsDir: uploadsDir() })
      const banners = await call<'main/bannnerInfo', BannerItem[]>(withShell, 'main/bannnerInfo')
      const image = await withShell.inject({ method: 'GET', url: banners.body.data[0]!.image })
      expect(image.statusCode).toBe(200)
      expect(image.headers['content-type']).toContain('image/svg+xml')
      expect(image.headers['cache-control']).toContain('immutable')
      const missing = await withShell.inject({ method: 'GET', url: '/uploads/nothing-here.png' })
      expect(missing.statusCode).toBe(404)
      expect(missing.body).not.toContain('<title>HOPE</title>')
      const page = await withShell.inject({ method: 'GET', url: '/news' })
      expect(page.body).toContain('<title>HOPE</title>')
    } finally {
      await withShell.close()
      fs.rmSync(dist, { recursive: true, force: true })
    }
  })
})
