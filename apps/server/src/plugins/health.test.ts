import net from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { connectChain } from '../chain/chain.service.ts'
import { createMemoryLimitStore, createRedisLimitStore, withFallback } from '../lib/limit-store.ts'
import { openDatabase } from '../db/pool.ts'
import {
  buildTestApp,
  createTestDatabase,
  databaseTargets,
  type TestDatabase,
} from '../testing/index.ts'

/** A port that accepts connections and never answers: a frozen node. */
async function silentPort(): Promise<{ port: number; close: () => void }> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((s) => {
    sockets.add(s)
    s.on('error', () => {})
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy()
      server.close()
    },
  }
}

describe('health and readiness', () => {
  let db: TestDatabase
  let silent: Awaited<ReturnType<typeof silentPort>>
  beforeAll(async () => {
    db = await createTestDatabase(databaseTargets()[0]!)
    silent = await silentPort()
  })
  afterAll(async () => {
    silent.close()
    await db.drop()
  })

  test('healthz answers while the process runs; readyz when the database answers', async () => {
    const app = await buildTestApp(db)
    const health = await app.inject({ method: 'GET', url: '/healthz' })
    expect(health.statusCode).toBe(200)
    expect(health.json()).toEqual({ code: 200, msg: 'ok', data: { status: 'ok' } })
    const ready = await app.inject({ method: 'GET', url: '/readyz' })
    expect(ready.statusCode).toBe(200)
    expect(ready.json().data).toEqual({ status: 'ready', failed: [], checks: { database: 'ok' } })
    await app.close()
  })

  test('a chain node that does not answer keeps the process ready, named in the body and the metrics', async () => {
    const rpcUrl = `http://user:secret@127.0.0.1:${silent.port}/rpc`
    const app = await buildTestApp(db, { chain: connectChain(rpcUrl, 31337) })
    const started = Date.now()
    const ready = await app.inject({ method: 'GET', url: '/readyz', headers: { lan: 'en_US' } })
    expect(Date.now() - started).toBeLessThan(10_000)
    // Requests still work (chain work waits): the process stays in rotation.
    expect(ready.statusCode).toBe(200)
    const body = ready.json()
    expect(body).toMatchObject({
      code: 200,
      data: { status: 'degraded', failed: ['chain'], checks: { database: 'ok' } },
    })
    expect(body.data.checks.chain).toMatch(/^failed: /)
    expect(ready.body).not.toContain('secret')
    expect(ready.body).not.toContain(String(silent.port))
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body
    expect(metrics).toContain('hope_dependency_up{dependency="chain"} 0')
    expect(metrics).toContain('hope_dependency_up{dependency="database"} 1')
    // Liveness is not readiness: the process still answers.
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    await app.close()
  })

  test('Redis that does not answer keeps the process ready while the limits fall back', async () => {
    const limits = withFallback(
      createRedisLimitStore(`redis://127.0.0.1:${silent.port}`),
      createMemoryLimitStore(),
      () => {},
    )
    const app = await buildTestApp(db, { limits })
    const ready = await app.inject({ method: 'GET', url: '/readyz' })
    expect(ready.statusCode).toBe(200)
    expect(ready.json().data).toMatchObject({
      status: 'degraded',
      failed: ['redis'],
      checks: { database: 'ok' },
    })
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body
    expect(metrics).toContain('hope_dependency_up{dependency="redis"} 0')
    await app.close()
    await limits.close()
  })

  test('a database that cannot be reached makes readyz 503 naming the database', async () => {
    const database = openDatabase(db.url, 2)
    const app = await buildTestApp(database)
    await database.close()
    const ready = await app.inject({ method: 'GET', url: '/readyz' })
    expect(ready.statusCode).toBe(503)
    expect(ready.json().data).toMatchObject({ status: 'unavailable', failed: ['database'] })
    await app.close()
  })
})
