import type { Page, Withdrawal } from '@hope/api'
import Fastify from 'fastify'
import pg from 'pg'
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { registerErrorHandling } from '../plugins/errors.ts'
import { call, databaseTargets, registerUser, useTestApp, type TestUser } from '../testing/index.ts'
import { DEFAULT_CONNECTION_TIMEOUTS, openDatabase } from './pool.ts'

describe.each(databaseTargets())('connection limits on $name', (target) => {
  const t = useTestApp(target)
  let user: TestUser

  beforeAll(async () => {
    user = await registerUser(t.app)
  })

  afterEach(() => {
    vi.restoreAllMocks()
  })

  test('every connection of the app’s pool starts with the limits', async () => {
    const client = await t.app.db.pool.connect()
    try {
      const show = async (name: string) =>
        (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name]
      expect(await show('statement_timeout')).toBe('5s')
      expect(await show('lock_timeout')).toBe('2s')
      expect(await show('idle_in_transaction_session_timeout')).toBe('10s')
    } finally {
      client.release()
    }
  })

  test('a statement past its limit is cancelled and answers 503 with Retry-After', async () => {
    const db = openDatabase(t.db.url, 1, {
      timeouts: { ...DEFAULT_CONNECTION_TIMEOUTS, statementMs: 300 },
    })
    const app = Fastify()
    app.addHook('onRequest', async (req) => {
      req.lang = 'en'
    })
    registerErrorHandling(app)
    app.post('/api/slow', async () => (await db.pool.query('SELECT pg_sleep(5)')).rows)
    try {
      const started = Date.now()
      const res = await app.inject({ method: 'POST', url: '/api/slow' })
      expect(Date.now() - started).toBeLessThan(2_000)
      expect(res.statusCode).toBe(503)
      expect(res.headers['retry-after']).toBe('5')
      expect(res.json()).toMatchObject({ code: 503, reason: 'service_unavailable' })
      // The connection is given back whole: the next statement runs.
      expect((await db.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    } finally {
      await app.close()
      await db.close()
    }
  })

  test('a lock held from outside fails what waits on it with 503, not the rest', async () => {
    const outside = new pg.Client({ connectionString: t.db.url })
    await outside.connect()
    try {
      await outside.query('BEGIN')
      await outside.query('LOCK TABLE withdrawals IN ACCESS EXCLUSIVE MODE')
      const released = new Promise<void>((resolve) =>
        setTimeout(() => void outside.query('ROLLBACK').then(() => resolve()), 5_000),
      )

      const started = Date.now()
      const [withdrawals, price, balance] = await Promise.all([
        t.as(user, 'userAccount/myWithDraw'),
        call(t.app, 'main/getETLDPrice'),
        t.as(user, 'userAccount/balance'),
      ])
      // The lock limit (2 s), well before the lock goes.
      expect(Date.now() - started).toBeLessThan(4_000)
      expect(withdrawals.status).toBe(503)
      expect(withdrawals.headers['retry-after']).toBe('5')
      expect(withdrawals.body).toMatchObject({ reason: 'service_unavailable' })
      expect(price.status).toBe(200)
      expect(balance.status).toBe(200)

      await released
      const after = await t.as<'userAccount/myWithDraw', Page<Withdrawal>>(
        user,
        'userAccount/myWithDraw',
      )
      expect(after.status).toBe(200)
      expect(after.body.data.list).toEqual([])
    } finally {
      await outside.end()
    }
  }, 15_000)

  test('the settlement raises its own statement limit inside its transactions', async () => {
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown
    const limits: string[] = []
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const text = args[0]
      if (typeof text !== 'string' || !text.startsWith('SET LOCAL statement_timeout'))
        return query.apply(this, args)
      // What the transaction's statements run under once the job has set its limit.
      return (query.apply(this, args) as Promise<unknown>).then(async (res) => {
        const shown = (await query.call(this, 'SHOW statement_timeout')) as pg.QueryResult
        limits.push(String(shown.rows[0]!.statement_timeout))
        return res
      })
    } as typeof pg.Client.prototype.query)

    const run = await t.app.services.settlement.settle('2030-01-01')
    expect(run).toMatchObject({ status: 'done' })
    expect(limits.length).toBeGreaterThan(0)
    expect(new Set(limits)).toEqual(new Set(['2min']))
    vi.restoreAllMocks()
    // Outside those transactions, the connections' own limit again.
    const client = await t.app.db.pool.connect()
    try {
      expect((await client.query('SHOW statement_timeout')).rows[0].statement_timeout).toBe('5s')
    } finally {
      client.release()
    }
  })
})
