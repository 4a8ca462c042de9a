import http from 'node:http'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { HopeServer } from './support/server.ts'

// Two workers behind one port: a scrape reaches one of them and answers both workers' metrics.

let server: HopeServer

beforeAll(async () => {
  server = await HopeServer.create()
  await server.start({ WEB_CONCURRENCY: '2' })
})

afterAll(async () => {
  await server?.dispose()
})

/** One request on a connection of its own (the primary hands each connection to a worker in turn). */
function get(pathname: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.baseUrl}${pathname}`,
      { method, agent: false, headers: { connection: 'close' } },
      (res) => {
        let body = ''
        res.on('data', (d) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** The value of one sample line of `text`, or 0. */
const sample = (text: string, series: string) =>
  Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${series} `))
      ?.slice(series.length + 1) ?? 0,
  )

const PRICE = 'hope_http_requests_total{route="/api/main/getETLDPrice",method="POST",status="200"}'

test("a scrape under two workers sees both workers' requests", async () => {
  const count = async () => {
    const started = performance.now()
    const res = await get('/metrics')
    expect(res.status).toBe(200)
    return { text: res.body, ms: performance.now() - started }
  }
  // Both workers serving and reporting.
  let first = await count()
  for (let i = 0; i < 50 && sample(first.text, 'hope_workers_reporting') < 2; i++) {
    await new Promise((r) => setTimeout(r, 200))
    first = await count()
  }
  expect(sample(first.text, 'hope_workers_reporting')).toBe(2)
  const before = sample(first.text, PRICE)
  const requests = 40
  for (let i = 0; i < requests; i++)
    expect((await get('/api/main/getETLDPrice', 'POST')).status).toBe(200)
  // Whichever worker each scrape reaches, it counts every request of both.
  const scrapes = []
  for (let i = 0; i < 4; i++) scrapes.push(await count())
  for (const s of scrapes) {
    expect(sample(s.text, 'hope_workers_reporting')).toBe(2)
    expect(sample(s.text, PRICE) - before).toBe(requests)
    // Figures of the books once, not once per worker.
    expect(s.text.match(/^hope_ledger_transfers /gm)).toHaveLength(1)
  }
  const slowest = Math.max(...scrapes.map((s) => s.ms))
  console.info(
    `[faults] worker metrics: ${requests} requests over 2 workers all counted; slowest scrape ${slowest.toFixed(0)} ms`,
  )
  expect(slowest).toBeLessThan(1_000)
})
