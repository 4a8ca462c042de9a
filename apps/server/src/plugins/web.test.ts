import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildApp } from '../app.ts'
import { loadConfig } from '../config.ts'
import { createTestDatabase, databaseTargets, type TestDatabase } from '../testing/index.ts'
import { STRICT_TRANSPORT_SECURITY } from './web.ts'

describe('serving the web app', () => {
  let dist: string
  let db: TestDatabase
  let app: FastifyInstance
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-dist-'))
    fs.mkdirSync(path.join(dist, 'assets'))
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>HOPE</title>')
    fs.writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)')
    db = await createTestDatabase(databaseTargets()[0]!)
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
    expect(res.headers['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'")
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })

  test('hashed assets are cached for a year; a missing asset is a 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-1234.js' })
    expect(res.headers['cache-control']).toContain('immutable')
    expect((await app.inject({ method: 'GET', url: '/assets/gone.js' })).statusCode).toBe(404)
  })

  test('any other page path gets the shell; API paths never do', async () => {
    const page = await app.inject({ method: 'GET', url: '/invite?pusername=0xabc' })
    expect(page.body).toContain('<title>HOPE</title>')
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
      expect(directives['script-src']).toEqual(["'self'", "'unsafe-inline'"])
      expect(directives['object-src']).toEqual(["'none'"])
      expect(directives['frame-ancestors']).toEqual(["'none'"])
      expect(directives['base-uri']).toEqual(["'self'"])
      for (const sources of Object.values(directives) as string[][])
        for (const s of sources) expect(['*', 'http:', 'ws:', 'wss:']).not.toContain(s)
    }
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
