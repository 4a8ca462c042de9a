import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { EthPriceChange, PriceHistory } from '@hope/api'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import {
  buildTestApp,
  call,
  databaseTargets,
  newOperator,
  registerUser,
  useTestApp,
} from '../../testing/index.ts'
import { createHttpPriceFeed } from './quotes.feed.ts'
import { createQuotesService } from './quotes.service.ts'

const H = 3_600_000
/** A fixed clock on a 5-minute boundary, so chart buckets fall where the tests say. */
const NOW = Date.parse('2031-03-15T06:00:00Z')
const sec = (ms: number) => Math.floor(ms / 1000)

describe.each(databaseTargets())('quotes API on $name', (target) => {
  const t = useTestApp(target)
  /** The same database seen by an app whose clock the test moves. */
  let clock: FastifyInstance
  let clockNow = NOW
  let finance: string
  let admin: string
  let content: string
  let userToken: string

  const ethRows = async () =>
    (
      await t.db.pool.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM price_points WHERE symbol = 'ETH'`,
      )
    ).rows[0]!.n
  const auditRows = async () =>
    (await t.db.pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM operator_audit`))
      .rows[0]!.n
  const insert = (symbol: 'ETH' | 'HOPE', price: string, at: number, source = 'sample') =>
    t.db.pool.query(
      'INSERT INTO price_points (symbol, price, source, at) VALUES ($1, $2, $3, $4)',
      [symbol, price, source, new Date(at)],
    )
  const history = async (params: Record<string, string>, on = clock) => {
    const res = await call<'main/priceHistory', PriceHistory>(on, 'main/priceHistory', params)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.data
  }
  const ethPrice = async (on = t.app) =>
    (await call<'main/getETHPrice', string>(on, 'main/getETHPrice')).body.data

  beforeAll(async () => {
    clock = await buildTestApp(t.db, { now: () => clockNow })
    finance = await newOperator(t.app, 'fin', 'finance')
    admin = await newOperator(t.app, 'boss', 'admin')
    content = await newOperator(t.app, 'cms', 'content')
    userToken = (await registerUser(t.app)).token
  })
  afterAll(async () => {
    await clock?.close()
  })
  beforeEach(() => {
    clockNow = NOW
  })

  test('the ETH price is the seeded demo price, and the spec default 1 when none is stored', async () => {
    const res = await call<'main/getETHPrice', string>(t.app, 'main/getETHPrice')
    expect([res.status, res.body.code, res.body.data]).toEqual([200, 200, '3000'])
    await t.db.pool.query('DELETE FROM price_points')
    expect(await ethPrice()).toBe('1')
  })

  test('setEthPrice refuses a bad price with price_invalid; nothing is recorded', async () => {
    const [rowsBefore, auditBefore] = [await ethRows(), await auditRows()]
    for (const price of [
      undefined,
      '',
      ' ',
      '0',
      '-1',
      'abc',
      'NaN',
      '1e3',
      '0x10',
      '1,5',
      '0.009',
      '10000000.000000000000000001',
      '99999999999',
      `1.${'1'.repeat(19)}`,
    ]) {
      const res = await call(t.app, 'admin/setEthPrice', { price }, { token: finance, lang: 'en' })
      expect([res.status, res.body.reason], String(price)).toEqual([400, 'price_invalid'])
      expect(res.body.msg).toMatch(/valid price/)
    }
    expect([await ethRows(), await auditRows()]).toEqual([rowsBefore, auditBefore])
  })

  test('setEthPrice is for admin and finance operators only', async () => {
    const [rowsBefore, auditBefore] = [await ethRows(), await auditRows()]
    const cases: [string | undefined, number, string][] = [
      [undefined, 401, 'not_logged_in'],
      [userToken, 401, 'session_expired'],
      [content, 403, 'forbidden'],
    ]
    for (const [token, status, reason] of cases) {
      const res = await call(t.app, 'admin/setEthPrice', { price: '3500' }, token ? { token } : {})
      expect([res.status, res.body.reason]).toEqual([status, reason])
    }
    expect([await ethRows(), await auditRows()]).toEqual([rowsBefore, auditBefore])
  })

  test('an operator sets the ETH price: it is answered at once, kept in the history and audited', async () => {
    await t.db.pool.query('DELETE FROM price_points')
    const first = await call<'admin/setEthPrice', EthPriceChange>(
      clock,
      'admin/setEthPrice',
      { price: '3123.450000', reason: 'exchange average' },
      { token: finance },
    )
    expect(first.body.data).toEqual({
      price: '3123.45',
      previous: null,
      at: new Date(NOW).toISOString(),
    })
    clockNow = NOW + 1_000
    const second = await call<'admin/setEthPrice', EthPriceChange>(
      clock,
      'admin/setEthPrice',
      { price: '0.01' },
      { token: admin },
    )
    expect(second.body.data).toMatchObject({ price: '0.01', previous: '3123.45' })
    expect(await ethPrice(clock)).toBe('0.01')
    const rows = await t.db.pool.query(
      `SELECT p.price::text, p.source, o.username FROM price_points p JOIN operators o ON o.id = p.operator_id
        WHERE p.symbol = 'ETH' ORDER BY p.at`,
    )
    expect(rows.rows).toEqual([
      { price: '3123.450000000000000000', source: 'operator', username: 'fin' },
      { price: '0.010000000000000000', source: 'operator', username: 'boss' },
    ])
    const audit = await t.db.pool.query(
      `SELECT o.username, a.action, a.reason, a.target_user_id, a.before, a.after
         FROM operator_audit a JOIN operators o ON o.id = a.operator_id
        WHERE a.action = 'set_eth_price' ORDER BY a.id`,
    )
    expect(audit.rows).toEqual([
      {
        username: 'fin',
        action: 'set_eth_price',
        reason: 'exchange average',
        target_user_id: null,
        before: { price: null },
        after: { price: '3123.45' },
      },
      {
        username: 'boss',
        action: 'set_eth_price',
        reason: 'ETH price',
        target_user_id: null,
        before: { price: '3123.45' },
        after: { price: '0.01' },
      },
    ])
  })

  describe('history on hand-made samples', () => {
    beforeEach(async () => {
      await t.db.pool.query('DELETE FROM price_points')
      await insert('ETH', '2000', NOW - 31 * 24 * H)
      await insert('ETH', '2500', NOW - 29 * 24 * H)
      await insert('ETH', '2800', NOW - 6 * 24 * H)
      await insert('ETH', '3000', NOW - 25 * H)
      await insert('ETH', '3050', NOW - 23 * H)
      await insert('ETH', '3100', NOW - H)
    })

    test('24h: the price a day ago, each sample since and the current price; the change is exact', async () => {
      const h = await history({ symbol: 'ETH', range: '24h' })
      expect(h).toEqual({
        symbol: 'ETH',
        range: '24h',
        price: '3100',
        open24h: '3000',
        change24h: '3.33',
        points: [
          { t: sec(NOW - 24 * H), price: '3000' },
          { t: sec(NOW - 23 * H), price: '3050' },
          { t: sec(NOW - H), price: '3100' },
          { t: sec(NOW), price: '3100' },
        ],
      })
    })

    test('7d and 30d reach back to the price in force at their start', async () => {
      const weekPrices = ['2500', '2800', '3000', '3050', '3100', '3100']
      const week = await history({ symbol: 'ETH', range: '7d' })
      expect(week.points.map((p) => p.price)).toEqual(weekPrices)
      expect(week.points[0]!.t).toBe(sec(NOW - 7 * 24 * H))
      expect(week.change24h).toBe('3.33')
      // The month reaches one price further back than the week.
      const month = await history({ symbol: 'ETH', range: '30d' })
      expect(month.points.map((p) => p.price)).toEqual(['2000', ...weekPrices])
      expect(month.points[0]!.t).toBe(sec(NOW - 30 * 24 * H))
    })

    test('a bucket keeps its last price; a fall shows as a negative change', async () => {
      await insert('ETH', '2950', NOW - 50 * 60_000 + 10_000)
      await insert('ETH', '2930', NOW - 50 * 60_000 + 20_000)
      await insert('ETH', '2907', NOW - 50 * 60_000 + 30_000)
      const h = await history({ symbol: 'ETH', range: '24h' })
      expect(h.points.slice(-2)).toEqual([
        { t: sec(NOW - 50 * 60_000 + 30_000), price: '2907' },
        { t: sec(NOW), price: '2907' },
      ])
      expect([h.price, h.open24h, h.change24h]).toEqual(['2907', '3000', '-3.10'])
    })

    test('HOPE: the current stage price against its samples', async () => {
      await insert('HOPE', '0.125', NOW - 24 * H - 1_000, 'stage')
      await insert('HOPE', '0.11', NOW - 3 * H, 'stage')
      const h = await history({ symbol: 'HOPE', range: '24h' })
      expect([h.price, h.open24h, h.change24h]).toEqual(['0.1', '0.125', '-20.00'])
      expect(h.points).toEqual([
        { t: sec(NOW - 24 * H), price: '0.125' },
        { t: sec(NOW - 3 * H), price: '0.11' },
        { t: sec(NOW), price: '0.1' },
      ])
      await t.db.pool.query(`DELETE FROM price_points WHERE symbol = 'HOPE'`)
      await insert('HOPE', '0.08', NOW - 2 * H, 'stage')
      const young = await history({ symbol: 'HOPE', range: '7d' })
      expect([young.open24h, young.change24h]).toEqual(['0.08', '25.00'])
      expect(young.points.map((p) => p.price)).toEqual(['0.08', '0.1'])
    })

    test('without history: the current price alone and no change', async () => {
      await t.db.pool.query('DELETE FROM price_points')
      const h = await history({ symbol: 'ETH', range: '30d' })
      expect(h).toEqual({
        symbol: 'ETH',
        range: '30d',
        price: '1',
        open24h: null,
        change24h: null,
        points: [{ t: sec(NOW), price: '1' }],
      })
    })

    test('refuses an unknown symbol or range; the range defaults to 24h', async () => {
      for (const params of [{ symbol: 'BTC' }, { symbol: 'ETH', range: '1y' }, {}]) {
        const res = await call(clock, 'main/priceHistory', params)
        expect([res.status, res.body.reason], JSON.stringify(params)).toEqual([
          400,
          'invalid_params',
        ])
      }
      expect((await history({ symbol: 'ETH' })).range).toBe('24h')
    })
  })

  test('the sampler records each change and an hourly sample of ETH and HOPE', async () => {
    await t.db.pool.query('DELETE FROM price_points')
    const rows = async () =>
      (
        await t.db.pool.query(
          `SELECT symbol, price::float8::text AS price, source, extract(epoch FROM at)::int AS at FROM price_points ORDER BY at, symbol`,
        )
      ).rows
    expect(await clock.services.quotes.tick()).toEqual({ recorded: 1 })
    expect(await clock.services.quotes.tick()).toEqual({ recorded: 0 })
    await call(clock, 'admin/setEthPrice', { price: '3000' }, { token: finance })
    clockNow = NOW + 30 * 60_000
    expect(await clock.services.quotes.tick()).toEqual({ recorded: 0 })
    clockNow = NOW + H
    expect(await clock.services.quotes.tick()).toEqual({ recorded: 2 })
    expect(await rows()).toEqual([
      { symbol: 'ETH', price: '3000', source: 'operator', at: sec(NOW) },
      { symbol: 'HOPE', price: '0.1', source: 'stage', at: sec(NOW) },
      { symbol: 'ETH', price: '3000', source: 'sample', at: sec(NOW + H) },
      { symbol: 'HOPE', price: '0.1', source: 'sample', at: sec(NOW + H) },
    ])
    // the stage moves on: the next run records the new HOPE price at once
    await t.db.pool.query(
      `INSERT INTO settings (key, value, updated_by) VALUES ('hopeStage1PriceUsdt', '"0.2"', 'test')
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    )
    const moved = await buildTestApp(t.db, { now: () => NOW + H + 60_000 })
    try {
      expect(await moved.services.quotes.tick()).toEqual({ recorded: 1 })
      expect((await rows()).at(-1)).toEqual({
        symbol: 'HOPE',
        price: '0.2',
        source: 'stage',
        at: sec(NOW + H + 60_000),
      })
    } finally {
      await moved.close()
      await t.db.pool.query(`DELETE FROM settings WHERE key = 'hopeStage1PriceUsdt'`)
    }
  })

  describe('with an HTTP price feed', () => {
    let server: http.Server
    let reply: { status: number; body: unknown } | 'hang' = { status: 200, body: {} }
    let fed: FastifyInstance
    let url = ''

    beforeAll(async () => {
      server = http.createServer((_req, res) => {
        if (reply === 'hang') return
        res.writeHead(reply.status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(reply.body))
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const { port } = server.address() as AddressInfo
      url = `http://127.0.0.1:${port}/eth`
      fed = await buildTestApp(t.db, {
        now: () => clockNow,
        env: {
          ETH_PRICE_URL: url,
          ETH_PRICE_PATH: 'ethereum.usd',
          ETH_PRICE_TIMEOUT_MS: '300',
        },
      })
    })
    afterAll(async () => {
      await fed?.close()
      server?.closeAllConnections()
      await new Promise((resolve) => server?.close(resolve))
    })

    test('the polled price becomes the ETH price; a failing feed keeps the last one', async () => {
      await t.db.pool.query('DELETE FROM price_points')
      reply = { status: 200, body: { ethereum: { usd: 3210.5 } } }
      expect(await fed.services.quotes.tick()).toEqual({ recorded: 2 })
      expect(await ethPrice(fed)).toBe('3210.5')
      for (const bad of [
        { status: 502, body: { ethereum: { usd: 1 } } },
        { status: 200, body: { ethereum: { usd: -5 } } },
        { status: 200, body: { bitcoin: { usd: 90_000 } } },
        'hang' as const,
      ]) {
        reply = bad
        clockNow += 60_000
        const started = Date.now()
        expect(await fed.services.quotes.tick()).toEqual({ recorded: 0 })
        expect(Date.now() - started).toBeLessThan(5_000)
        expect(await ethPrice(fed)).toBe('3210.5')
      }
      reply = { status: 200, body: { ethereum: { usd: '3300' } } }
      clockNow += 60_000
      expect(await fed.services.quotes.tick()).toEqual({ recorded: 1 })
      expect(await ethPrice(fed)).toBe('3300')
      const sources = await t.db.pool.query(
        `SELECT price::float8::text AS price, source FROM price_points WHERE symbol = 'ETH' ORDER BY at`,
      )
      expect(sources.rows).toEqual([
        { price: '3210.5', source: 'feed' },
        { price: '3300', source: 'feed' },
      ])
    })

    test('a feed failure is logged with the feed it came from', async () => {
      const log = vi.fn()
      const quotes = createQuotesService({
        pool: t.db.pool,
        hopePrice: async () => '0.1',
        feed: createHttpPriceFeed({ url, path: 'ethereum.usd', timeoutMs: 300 }),
        now: () => clockNow,
        log,
      })
      reply = { status: 503, body: {} }
      await quotes.tick()
      expect(log).toHaveBeenCalledWith('ETH price feed failed; keeping the last price', {
        err: expect.objectContaining({ message: expect.stringMatching(/503/) }),
        feed: 'http 127.0.0.1:' + new URL(url).port,
      })
      reply = { status: 200, body: { ethereum: { usd: 3000 } } }
      log.mockClear()
      await quotes.tick()
      expect(log).not.toHaveBeenCalled()
    })
  })
})
