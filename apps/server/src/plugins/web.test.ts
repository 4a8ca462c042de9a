import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import type { BannerItem, ShellBoot } from '@hope/api'
import { LANGS, loopbackHttpOrigin, SHELL_BOOT_ELEMENT_ID } from '@hope/api'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildApp } from '../app.ts'
import { loadConfig } from '../config.ts'
import { call, createTestDatabase, databaseTargets, type TestDatabase } from '../testing/index.ts'
import {
  BANNER_PRELOAD_SCRIPT,
  contentSecurityPolicy,
  inlineScriptHashes,
  registerWebApp,
  STRICT_TRANSPORT_SECURITY,
} from './web.ts'

/** The build's shell has inline scripts of its own (the first-screen preloads, early reads). */
const BUILD_SCRIPT = "document.documentElement.dataset.early='1'"
const SHELL = `<!doctype html><html><head><title>HOPE</title><script>${BUILD_SCRIPT}</script></head><body><div id="root"></div></body></html>`

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

/** The boot data the shell carries, as the app reads it. */
function bootOf(html: string): ShellBoot {
  const m = new RegExp(
    `<script id="${SHELL_BOOT_ELEMENT_ID}" type="application/json">(.*?)</script>`,
  ).exec(html)
  if (!m) throw new Error('the shell carries no boot data')
  return JSON.parse(m[1]!)
}

describe('serving the web app', () => {
  let dist: string
  let db: TestDatabase
  let app: FastifyInstance
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-dist-'))
    fs.mkdirSync(path.join(dist, 'assets'))
    fs.writeFileSync(path.join(dist, 'index.html'), SHELL)
    fs.writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)')
    db = await createTestDatabase(databaseTargets()[0]!)
    // The banners here are the tests' own.
    await db.pool.query('DELETE FROM banners')
    app = await buildApp({
      config: { ...loadConfig({}), webDist: dist },
      database: db,
      logger: false,
    })
  })
  afterAll(async () => {
    await app?.close()
    await db?.drop()
    fs.rmSync(dist, { recursive: true, force: true })
  })

  test('the shell is never cached and carries the production headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-cache')
    // Inline scripts run by their hashes only: the build's and the banner preload.
    const policy = String(res.headers['content-security-policy'])
    const scriptSrc = /script-src ([^;]*)/.exec(policy)![1]!.split(' ')
    expect(scriptSrc.sort()).toEqual(
      ["'self'", sha256(BUILD_SCRIPT), sha256(BANNER_PRELOAD_SCRIPT)].sort(),
    )
    expect(policy).toContain("frame-ancestors 'none'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups')
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin')
    expect(res.headers['permissions-policy']).toContain('camera=()')
  })

  test('every inline script the shell sends is named by the policy', async () => {
    await db.pool.query(
      `WITH b AS (INSERT INTO banners (image, link, sort) VALUES ('/b.svg', '', 0) RETURNING id)
       INSERT INTO banner_translations (banner_id, lang, title) SELECT id, 'zhcn', 'b' FROM b`,
    )
    const res = await app.inject({ method: 'GET', url: '/' })
    await db.pool.query('DELETE FROM banners')
    const hashes = inlineScriptHashes(res.body)
    expect(hashes).toHaveLength(2)
    for (const h of hashes)
      expect(String(res.headers['content-security-policy'])).toContain(`'${h}'`)
  })

  test('the shell carries the outflowSignature setting, so the app asks the wallet first', async () => {
    expect(bootOf((await app.inject({ method: 'GET', url: '/' })).body).outflowSignature).toBe(
      'others',
    )
    await app.services.settings.set('outflowSignature', 'all', 'test')
    try {
      const boot = bootOf((await app.inject({ method: 'GET', url: '/' })).body)
      expect(boot.outflowSignature).toBe('all')
    } finally {
      await app.services.settings.set('outflowSignature', 'others', 'test')
    }
  })

  test('without published banners the shell carries empty lists and asks for no picture', async () => {
    const html = (await app.inject({ method: 'GET', url: '/' })).body
    expect(bootOf(html).banners).toEqual(Object.fromEntries(LANGS.map((l) => [l, []])))
    expect(html).not.toContain('new Image()')
  })

  test('the shell carries the banners of every language and starts the first picture for a signed-in home', async () => {
    const image = `/uploads/${'c4'.repeat(32)}.png`
    const hostile = '</script><script>alert(1)</script>'
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO banners (image, link, sort) VALUES ($1, '/stake', 0), ('/banner-2.svg', '', 1),
         ('/hidden.svg', '', -1) RETURNING id`,
      [image],
    )
    const [first, second, hidden] = rows.map((r) => r.id)
    await db.pool.query('UPDATE banners SET published = false WHERE id = $1', [hidden])
    await db.pool.query(
      `INSERT INTO banner_translations (banner_id, lang, title) VALUES
         ($1, 'zhcn', $4), ($1, 'en', 'First $& $1'), ($2, 'zhcn', '第二'), ($3, 'zhcn', '隐藏')`,
      [first, second, hidden, hostile],
    )
    for (const url of ['/', '/index.html', '/invite?pusername=0xabc']) {
      const res = await app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['cache-control'], url).toBe('no-cache')
      // A title cannot end the boot element: its `<` is escaped, and the text reads back whole.
      expect(res.body).not.toContain(hostile)
      const boot = bootOf(res.body)
      for (const lang of LANGS) {
        const api = await call<'main/bannnerInfo', BannerItem[]>(
          app,
          'main/bannnerInfo',
          {},
          { lang },
        )
        expect(boot.banners[lang], `${url} ${lang}`).toEqual(api.body.data)
      }
      expect(boot.banners.zhcn!.map((b) => b.title)).toEqual([hostile, '第二'])
      expect(boot.banners.en!.map((b) => b.title)).toEqual(['First $& $1', '第二'])
      // The first banner's picture, with the srcset its <img> uses, for the home with a token.
      expect(res.body).toContain(`"src":"${image}"`)
      expect(res.body).toContain(`${image.replace('.png', '-375w.png')} 375w`)
      expect(res.body).toContain(`<script>${BANNER_PRELOAD_SCRIPT}</script>`)
      expect(boot.picture?.src).toBe(image)
    }
    // Compressed for the browsers that say they take it, the same page once unpacked.
    const plain = (await app.inject({ method: 'GET', url: '/' })).body
    const br = await app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'gzip, br' },
    })
    expect(br.headers['content-encoding']).toBe('br')
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain)
    const gz = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain)
    await db.pool.query('DELETE FROM banners')
  })

  test('a shell whose boot data cannot be read goes out as built', async () => {
    const bare = Fastify({ logger: false })
    try {
      await registerWebApp(bare, dist, async () => {
        throw new Error('database away')
      })
      const res = await bare.inject({ method: 'GET', url: '/' })
      expect([res.statusCode, res.body]).toEqual([200, SHELL])
    } finally {
      await bare.close()
    }
  })

  test('hashed assets are cached for a year; a missing asset is a 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-1234.js' })
    expect(res.headers['cache-control']).toContain('immutable')
    expect((await app.inject({ method: 'GET', url: '/assets/gone.js' })).statusCode).toBe(404)
  })

  test('any other page path gets the shell; API paths never do', async () => {
    const page = await app.inject({ method: 'GET', url: '/invite?pusername=0xabc' })
    expect(page.body).toContain('<title>HOPE</title>')
    expect(page.body).toContain(`id="${SHELL_BOOT_ELEMENT_ID}"`)
    const api = await app.inject({ method: 'GET', url: '/api/user/nothing' })
    expect(api.json().reason).toBe('not_found')
  })

  test('the API reference is generated from the contract', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json()
    expect(Object.keys(doc.paths)).toContain('/api/user/logining')
    expect(
      doc.paths['/api/user/logining'].post.parameters.map((p: { name: string }) => p.name),
    ).toEqual(
      expect.arrayContaining(['username', 'message', 'signature', 'location', 'pusername', 'lan']),
    )
    const html = await app.inject({ method: 'GET', url: '/api/docs' })
    expect(html.headers['content-type']).toContain('text/html')
    expect(html.body).toContain('POST /api/userAccount/transfer')
  })
})

describe('production headers', () => {
  let db: TestDatabase
  const apps: FastifyInstance[] = []
  const build = async (env: NodeJS.ProcessEnv) => {
    const app = await buildApp({
      config: { ...loadConfig(env), webDist: undefined, adminDist: undefined },
      database: db,
      logger: false,
    })
    apps.push(app)
    return app
  }
  const contact = (app: FastifyInstance, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/main/contact', headers })

  beforeAll(async () => {
    db = await createTestDatabase(databaseTargets()[0]!)
  })
  afterAll(async () => {
    for (const app of apps) await app.close()
    await db?.drop()
  })

  test('the policy admits the own origin, https for wallet RPC, and nothing looser', async () => {
    const app = await build({})
    for (const res of [
      await contact(app),
      await app.inject({ method: 'POST', url: '/api/main/newInfo?id=abc' }),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      const policy = String(res.headers['content-security-policy'])
      const directives = Object.fromEntries(
        policy.split(';').map((d) => {
          const [name, ...sources] = d.trim().split(/\s+/)
          return [name, sources]
        }),
      )
      expect(directives['default-src']).toEqual(["'self'"])
      expect(directives['connect-src']).toEqual(["'self'", 'https:'])
      // No inline script runs but by its hash (no shell is served here: none at all).
      expect(directives['script-src']).toEqual(["'self'"])
      expect(directives['object-src']).toEqual(["'none'"])
      expect(directives['frame-ancestors']).toEqual(["'none'"])
      expect(directives['base-uri']).toEqual(["'self'"])
      for (const sources of Object.values(directives) as string[][])
        for (const s of sources) expect(['*', 'http:', 'ws:', 'wss:']).not.toContain(s)
    }
  })

  test('a chain on the loopback (the local one) is the only plain http the page may reach', () => {
    const connect = (origins: string[]) =>
      contentSecurityPolicy([], origins)
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .find(([name]) => name === 'connect-src')!
        .slice(1)
    const local = loopbackHttpOrigin('http://127.0.0.1:8545/')
    expect(local).toBe('http://127.0.0.1:8545')
    expect(connect([local!])).toEqual(["'self'", 'https:', 'http://127.0.0.1:8545'])
    for (const elsewhere of ['http://10.0.0.5:8545', 'https://rpc.example', 'ws://localhost:8545'])
      expect(loopbackHttpOrigin(elsewhere)).toBeNull()
    expect(loopbackHttpOrigin(undefined)).toBeNull()
  })

  test('HSTS only when the request came over TLS', async () => {
    const https = { 'x-forwarded-proto': 'https' }
    const direct = await build({})
    expect((await contact(direct)).headers['strict-transport-security']).toBeUndefined()
    // Without TRUST_PROXY anyone could claim TLS: the header is not believed.
    expect((await contact(direct, https)).headers['strict-transport-security']).toBeUndefined()

    const proxied = await build({ TRUST_PROXY: 'true' })
    expect((await contact(proxied)).headers['strict-transport-security']).toBeUndefined()
    expect((await contact(proxied, https)).headers['strict-transport-security']).toBe(
      STRICT_TRANSPORT_SECURITY,
    )

    const published = await build({ PUBLIC_URL: 'https://hope.example' })
    expect((await contact(published)).headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    )
  })
})
