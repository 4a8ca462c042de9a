import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildApp } from '../app.ts'
import { loadConfig } from '../config.ts'
import { databaseTargets, useTestDatabase } from '../testing/index.ts'

function makeDist(title: string): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-dist-'))
  fs.mkdirSync(path.join(dist, 'assets'))
  fs.writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>${title}</title>`)
  fs.writeFileSync(path.join(dist, 'assets', `${title}-1234.js`), 'console.log(1)')
  return dist
}

describe('serving the operator console', () => {
  let webDist: string
  let adminDist: string
  const t = useTestDatabase(databaseTargets()[0]!)
  let app: FastifyInstance
  beforeAll(async () => {
    webDist = makeDist('web')
    adminDist = makeDist('console')
    app = await buildApp({
      config: { ...loadConfig({}), webDist, adminDist },
      database: t.db,
      logger: false,
    })
  })
  afterAll(async () => {
    await app?.close()
    fs.rmSync(webDist, { recursive: true, force: true })
    fs.rmSync(adminDist, { recursive: true, force: true })
  })

  test('the console shell is at /admin/, never cached, with the production headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/admin/' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('<title>console</title>')
    expect(res.headers['cache-control']).toBe('no-cache')
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(res.headers['x-frame-options']).toBe('DENY')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })

  test('/admin redirects to /admin/; other console paths get the console shell', async () => {
    const bare = await app.inject({ method: 'GET', url: '/admin' })
    expect(bare.statusCode).toBe(302)
    expect(bare.headers.location).toBe('/admin/')
    const deep = await app.inject({ method: 'GET', url: '/admin/users?q=1' })
    expect(deep.statusCode).toBe(200)
    expect(deep.body).toContain('<title>console</title>')
    expect(deep.headers['content-security-policy']).toContain("default-src 'self'")
  })

  test('console assets are cached for a year; a missing one is a 404, not the shell', async () => {
    const asset = await app.inject({ method: 'GET', url: '/admin/assets/console-1234.js' })
    expect(asset.statusCode).toBe(200)
    expect(asset.headers['cache-control']).toContain('immutable')
    const gone = await app.inject({ method: 'GET', url: '/admin/assets/gone.js' })
    expect(gone.statusCode).toBe(404)
    expect(gone.json().reason).toBe('not_found')
  })

  test('the web app is served as before', async () => {
    const root = await app.inject({ method: 'GET', url: '/' })
    expect(root.body).toContain('<title>web</title>')
    const page = await app.inject({ method: 'GET', url: '/invite' })
    expect(page.body).toContain('<title>web</title>')
    const api = await app.inject({ method: 'GET', url: '/api/user/nothing' })
    expect(api.json().reason).toBe('not_found')
  })
})
