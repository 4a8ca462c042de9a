import { formatAmount, parseAmount, trimDecimal } from '@hope/api'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { loadConfig } from '../../config.ts'
import { createHttpPriceFeed } from './quotes.feed.ts'
import {
  HOUR_MS,
  buildSeries,
  changePercent,
  openPrice,
  readFeedPrice,
  sampleDue,
  samePrice,
} from './quotes.rules.ts'

const price18 = fc.bigInt({ min: 1n, max: 10n ** 25n }).map((u) => formatAmount(u, 18))

describe('change over 24 hours', () => {
  test('worked examples, rounded half away from zero to two decimals', () => {
    expect(changePercent('100', '105.255')).toBe('5.26')
    expect(changePercent('100', '105.254999')).toBe('5.25')
    expect(changePercent('3000', '2907')).toBe('-3.10')
    expect(changePercent('100', '94.745')).toBe('-5.26')
    expect(changePercent('0.1', '0.11')).toBe('10.00')
    expect(changePercent('3000', '3000.000000000000000001')).toBe('0.00')
    expect(changePercent('3000', '2999.999999999999999999')).toBe('0.00')
    expect(changePercent('1', '3')).toBe('200.00')
    expect(changePercent('3', '1')).toBe('-66.67')
  })

  test('refuses a zero open price', () => {
    expect(() => changePercent('0', '1')).toThrow()
  })

  test('is the exact ratio within half a hundredth, and flips sign with the move', () => {
    fc.assert(
      fc.property(price18, price18, (open, current) => {
        const change = changePercent(open, current)
        const o = parseAmount(open, 18)!
        const c = parseAmount(current, 18)!
        const hundredths = BigInt(change.replace('.', ''))
        // |hundredths × o − (c − o) × 10 000| ≤ o / 2
        const gap = hundredths * o - (c - o) * 10_000n
        expect(2n * (gap < 0n ? -gap : gap) <= o).toBe(true)
        if (c >= o) expect(change.startsWith('-')).toBe(false)
        expect(/^-?\d+\.\d{2}$/.test(change)).toBe(true)
      }),
    )
  })

  test('the open price is the one before the day, else the first within it', () => {
    const a = { at: 1, price: '1' }
    const b = { at: 2, price: '2' }
    expect(openPrice(a, b)).toBe('1')
    expect(openPrice(null, b)).toBe('2')
    expect(openPrice(null, null)).toBeNull()
  })
})

describe('chart series', () => {
  const from = Date.parse('2030-01-01T00:00:00Z')
  const now = from + 24 * HOUR_MS

  test('starts at the price in force, keeps the rows in order, ends at the current price', () => {
    const series = buildSeries({
      anchor: { at: from - 5_000, price: '3000.000000000000000000' },
      rows: [
        { at: from + 2 * HOUR_MS, price: '3100' },
        { at: from + HOUR_MS, price: '3050.5' },
      ],
      from,
      now,
      current: '3120',
    })
    expect(series).toEqual([
      { t: from / 1000, price: '3000' },
      { t: from / 1000 + 3600, price: '3050.5' },
      { t: from / 1000 + 7200, price: '3100' },
      { t: now / 1000, price: '3120' },
    ])
  })

  test('without history it is the current price alone; a row at now gives way to it', () => {
    expect(buildSeries({ anchor: null, rows: [], from, now, current: '1' })).toEqual([
      { t: now / 1000, price: '1' },
    ])
    expect(
      buildSeries({ anchor: null, rows: [{ at: now, price: '2' }], from, now, current: '3' }),
    ).toEqual([{ t: now / 1000, price: '3' }])
  })

  test('times rise strictly and the last point is the current price, whatever the rows', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: from - HOUR_MS, max: now + HOUR_MS }),
            price: price18,
          }),
        ),
        fc.option(price18, { nil: null }),
        price18,
        (rows, anchorPrice, current) => {
          const series = buildSeries({
            anchor: anchorPrice ? { at: from - 1, price: anchorPrice } : null,
            rows,
            from,
            now,
            current,
          })
          for (let i = 1; i < series.length; i++)
            expect(series[i]!.t).toBeGreaterThan(series[i - 1]!.t)
          expect(series.at(-1)).toEqual({ t: now / 1000, price: trimDecimal(current) })
          for (const p of series) {
            expect(p.t).toBeGreaterThanOrEqual(Math.floor(from / 1000))
            expect(p.t).toBeLessThanOrEqual(now / 1000)
          }
        },
      ),
    )
  })
})

describe('sampler', () => {
  const now = Date.parse('2030-01-01T12:00:00Z')
  test('records a change, an hourly sample, or nothing', () => {
    expect(sampleDue(null, '1', now)).toBe('change')
    expect(sampleDue({ at: now - 60_000, price: '3000' }, '3001', now)).toBe('change')
    expect(sampleDue({ at: now - 60_000, price: '3000.000' }, '3000', now)).toBeNull()
    expect(sampleDue({ at: now - HOUR_MS, price: '3000' }, '3000', now)).toBe('sample')
    expect(samePrice('0.10', '0.1')).toBe(true)
  })
})

describe('price feed', () => {
  test('reads the price at a dotted path, as a string or a plain number', () => {
    expect(readFeedPrice({ ethereum: { usd: 3120.5 } }, 'ethereum.usd')).toBe('3120.5')
    expect(readFeedPrice({ data: [{ price: '3120.50' }] }, 'data.0.price')).toBe('3120.5')
    expect(readFeedPrice({ price: ' 42 ' }, 'price')).toBe('42')
  })

  test('refuses what is not a sane price', () => {
    for (const body of [
      { price: -1 },
      { price: 0 },
      { price: '1e3' },
      { price: 1e-9 },
      { price: 1e12 },
      { price: 'NaN' },
      { price: null },
      { price: { usd: 1 } },
      { other: 1 },
      null,
      'text',
    ])
      expect(readFeedPrice(body, 'price'), JSON.stringify(body)).toBeNull()
  })

  test('an HTTP feed answers the price, and throws on a bad status, body or timeout', async () => {
    const answer = (body: unknown, status = 200) =>
      (async () => new Response(JSON.stringify(body), { status })) as typeof fetch
    const feed = (f: typeof fetch, timeoutMs = 1_000) =>
      createHttpPriceFeed({ url: 'https://prices.test/eth', path: 'usd', timeoutMs, fetch: f })
    await expect(feed(answer({ usd: '3333.3' })).fetchPrice()).resolves.toBe('3333.3')
    await expect(feed(answer({ usd: 1 }, 502)).fetchPrice()).rejects.toThrow(/502/)
    await expect(feed(answer({ eur: 1 })).fetchPrice()).rejects.toThrow(/no valid price/)
    const hang = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => {
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason))
      })) as unknown as typeof fetch
    await expect(feed(hang, 100).fetchPrice()).rejects.toThrow(/timeout|abort/i)
  })

  test('is configured by ETH_PRICE_URL and ETH_PRICE_PATH; a half-given one stops the start', () => {
    expect(loadConfig({}).ethPriceFeed).toBeUndefined()
    expect(
      loadConfig({ ETH_PRICE_URL: 'https://prices.test/eth', ETH_PRICE_PATH: 'ethereum.usd' })
        .ethPriceFeed,
    ).toEqual({ url: 'https://prices.test/eth', path: 'ethereum.usd', timeoutMs: 5_000 })
    expect(() => loadConfig({ ETH_PRICE_URL: 'https://prices.test/eth' })).toThrow(/ETH_PRICE_PATH/)
    expect(() => loadConfig({ ETH_PRICE_URL: 'ftp://prices.test', ETH_PRICE_PATH: 'p' })).toThrow(
      /ETH_PRICE_URL/,
    )
    expect(() =>
      loadConfig({
        ETH_PRICE_URL: 'https://p.test',
        ETH_PRICE_PATH: 'p',
        ETH_PRICE_TIMEOUT_MS: '0',
      }),
    ).toThrow(/ETH_PRICE_TIMEOUT_MS/)
  })
})
