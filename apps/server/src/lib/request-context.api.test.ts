import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { loggerOptions } from '../app.ts'
import { AppError } from './app-error.ts'
import { buildTestApp, databaseTargets, useTestDatabase } from '../testing/index.ts'

describe('request ids', () => {
  const t = useTestDatabase(databaseTargets()[0]!)
  let app: FastifyInstance
  const lines: Record<string, unknown>[] = []
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
        done()
      },
    })
    app = await buildTestApp(t.db, {
      logger: { ...loggerOptions({ logLevel: 'info', logFormat: 'json' }), stream },
    })
    // A service that logs through the app's logger after an await, then fails.
    app.get('/api/test/failing-work', async () => {
      await new Promise((r) => setTimeout(r, 5))
      app.log.warn('the work went wrong')
      throw new Error('boom')
    })
    app.get('/api/test/refused', async () => {
      throw new AppError('invalid_params')
    })
  })
  afterAll(async () => {
    await app?.close()
  })

  test('a failure answers its request id, and every line the request caused carries it', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/failing-work' })
    expect(res.statusCode).toBe(500)
    const id = res.headers['x-request-id']
    expect(id).toMatch(/^[0-9a-f]{16}$/)
    expect(res.json()).toMatchObject({ reason: 'internal_error', requestId: id })
    const caused = lines.filter((l) => l.reqId === id)
    expect(caused.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['the work went wrong', 'request failed']),
    )
    // The app's own line carries the id once, not twice.
    const workLine = lines.find((l) => l.msg === 'the work went wrong')!
    expect(workLine.reqId).toBe(id)
  })

  test('refusals and unknown paths name their request too; two requests, two ids', async () => {
    const a = await app.inject({ method: 'GET', url: '/api/test/refused' })
    const b = await app.inject({ method: 'POST', url: '/api/no/such/route' })
    expect(a.json()).toMatchObject({
      reason: 'invalid_params',
      requestId: a.headers['x-request-id'],
    })
    expect(b.json()).toMatchObject({ reason: 'not_found', requestId: b.headers['x-request-id'] })
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id'])
  })

  test('a load balancer’s id is kept; junk in its place is not', async () => {
    const kept = await app.inject({
      method: 'GET',
      url: '/api/test/refused',
      headers: { 'x-request-id': 'lb-7f3a9c21-e4' },
    })
    expect(kept.headers['x-request-id']).toBe('lb-7f3a9c21-e4')
    expect(kept.json().requestId).toBe('lb-7f3a9c21-e4')
    const junk = await app.inject({
      method: 'GET',
      url: '/api/test/refused',
      headers: { 'x-request-id': '"}\u0007{' },
    })
    expect(junk.headers['x-request-id']).toMatch(/^[0-9a-f]{16}$/)
  })

  test('a success names its request in the header', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/main/getETLDPrice' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{16}$/)
  })
})
