// API and cost-growth benchmarks against the real app (buildApp) in a child process and
// PostgreSQL (embedded, or BENCH_DATABASE_URL), load from this process with autocannon, all on
// 127.0.0.1 and bounded in time.
//
// growth: at each size of BENCH_SIZES (members; default 10k, 100k, 1M) a database is generated
//   (trees, positions, account logs; the whale's log has one row per member), `ledger:verify`
//   runs on it, and the list endpoints and team statistics are timed one request at a time.
// api: at the largest size, per endpoint the req/s at saturation (BENCH_API_CONNECTIONS, 64)
//   and p50/p99 at a steady BENCH_API_RATE (2,000 req/s), BENCH_API_SECONDS (10) each; beside
//   them a bare Fastify route's req/s, and the app server's highest resident memory.
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { migrate } from '../../apps/server/src/db/migrate.ts'
import { openDatabase } from '../../apps/server/src/db/pool.ts'
import { seedDemo } from '../../apps/server/src/db/seed.ts'
import { verifyLedger } from '../../apps/server/src/modules/ledger/ledger.verify.ts'
import { tokenHash } from '../../apps/server/src/modules/user/user.rules.ts'
import { generateBenchEconomy, type GeneratedEconomy } from './generate.ts'
import {
  saturate,
  sampleRss,
  sequential,
  startServerChild,
  steady,
  type LoadTarget,
  type ServerChild,
} from './load.ts'
import { startBenchServer, transport, type BenchServer } from './postgres.ts'
import { formatFigure, sizeLabel, type BenchRow } from './table.ts'

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number)
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10)
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 64)
const RATE = Number(process.env.BENCH_API_RATE ?? 2000)
const P99_BUDGET_MS = 20
const GROWTH_REQUESTS = Number(process.env.BENCH_GROWTH_REQUESTS ?? 500)
/** Members holding the sessions the per-user endpoints rotate through. */
const MEMBER_SESSIONS = 200

/** Sessions stored the way the user service stores them (the token's hash); answers the tokens. */
async function openSessions(pool: pg.Pool, userIds: number[]): Promise<string[]> {
  const tokens = userIds.map(() => randomBytes(32).toString('base64url'))
  await pool.query(
    `INSERT INTO sessions (user_id, token_hash, pair_hash, ip, expires_at)
     SELECT u, t, p, '127.0.0.1', now() + interval '1 day'
       FROM unnest($1::bigint[], $2::bytea[], $3::bytea[]) AS x (u, t, p)`,
    [
      userIds,
      tokens.map((t) => tokenHash(t)),
      tokens.map((t) => createHash('sha256').update(`bench:${t}`).digest()),
    ],
  )
  return tokens
}

interface Prepared {
  size: number
  url: string
  economy: GeneratedEconomy
  whaleToken: string
  memberTokens: string[]
  /** An entry id half-way down the whale's log: a page deep inside it. */
  middleCursor: string
  rows: BenchRow[]
}

async function prepare(server: BenchServer, size: number, group: string): Promise<Prepared> {
  const label = `${sizeLabel(size)} users`
  const url = await server.createDatabase(`hope_bench_api_${size}`)
  const database = openDatabase(url, 4)
  try {
    await migrate(database.pool)
    await seedDemo(database.pool)
    const t0 = performance.now()
    const whaleLogRows = Number(process.env.BENCH_LOG_ROWS ?? size)
    const economy = await generateBenchEconomy(database.pool, {
      users: size,
      whaleLogRows,
      positions: size,
      prefix: `bench${size}`,
      log: (m) => console.info(`  generate ${label}: ${m}`),
    })
    await database.pool.query('VACUUM ANALYZE')
    const seconds = (performance.now() - t0) / 1000
    const report = await verifyLedger(database.pool)
    if (report.problems.length) console.info(`ledger:verify:\n${report.problems.join('\n')}`)
    console.info(
      `  ${label}: generated in ${seconds.toFixed(1)} s, ${report.transfers} transfers, whale has ${whaleLogRows} log rows and ${economy.whaleDirects} direct members, ledger:verify ${report.problems.length ? 'FAILED' : 'clean'}`,
    )
    const members = new Set<number>()
    while (members.size < Math.min(MEMBER_SESSIONS, size - 1))
      members.add(economy.whaleId + 1 + Math.floor(Math.random() * (size - 1)))
    const [whaleToken, ...memberTokens] = await openSessions(database.pool, [
      economy.whaleId,
      ...members,
    ])
    const middle = await database.pool.query<{ id: string }>(
      `SELECT id::text FROM ledger_entries WHERE user_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1`,
      [economy.whaleId, Math.floor(whaleLogRows / 2)],
    )
    return {
      size,
      url,
      economy,
      whaleToken: whaleToken!,
      memberTokens,
      middleCursor: middle.rows[0]?.id ?? '1',
      rows: [
        {
          group,
          name: 'generate members, trees, positions, logs',
          size: label,
          value: seconds,
          unit: 's',
        },
        {
          group,
          name: 'ledger:verify problems after generating',
          size: label,
          value: report.problems.length,
          unit: 'problems',
          budget: '0',
          ok: report.problems.length === 0,
        },
      ],
    }
  } finally {
    await database.close()
  }
}

/** Checks that a request is answered with code 200 before it is put under load. */
async function expectAnswer(target: LoadTarget): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${target.port}${target.path}`, {
    method: 'POST',
    headers: target.tokens?.length ? { token: target.tokens[0]! } : {},
  })
  const body = (await res.json()) as { code?: number; msg?: string }
  if (res.status !== 200 || body.code !== 200)
    throw new Error(`${target.path} answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`)
}

function startApp(url: string, dataDir: string): Promise<ServerChild> {
  return startServerChild('api-server.ts', ['app'], {
    ...process.env,
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  })
}

interface Endpoint {
  name: string
  path: string
  tokens?: string[]
}

/** The list endpoints and team statistics, timed one request after another (p50). */
async function measureGrowth(
  app: ServerChild,
  p: Prepared,
  base: Map<string, number>,
): Promise<BenchRow[]> {
  const label = `${sizeLabel(p.size)} users`
  const whale = [p.whaleToken]
  const endpoints: Endpoint[] = [
    {
      name: 'balanceDetail page 1',
      path: '/api/userAccount/balanceDetail?pageSize=20',
      tokens: whale,
    },
    {
      name: 'balanceDetail page half-way down the log',
      path: `/api/userAccount/balanceDetail?pageSize=20&cursor=${p.middleCursor}`,
      tokens: whale,
    },
    {
      name: 'balanceDetail of one account (community) page 1',
      path: '/api/userAccount/balanceDetail?pageSize=20&account=community',
      tokens: whale,
    },
    {
      name: 'balanceDetail of an account without entries (split)',
      path: '/api/userAccount/balanceDetail?pageSize=20&account=split',
      tokens: whale,
    },
    {
      name: 'groupZt (direct members) page 1',
      path: '/api/game/groupZt?pageNum=1&pageSize=20',
      tokens: whale,
    },
    { name: 'groupTj (team statistics)', path: '/api/game/groupTj', tokens: whale },
    { name: 'news page 1', path: '/api/main/news?pageNum=1&pageSize=10' },
  ]
  const rows: BenchRow[] = []
  const rss = sampleRss(app.pid)
  for (const e of endpoints) {
    const target = { port: app.port, path: e.path, ...(e.tokens ? { tokens: e.tokens } : {}) }
    await expectAnswer(target)
    await sequential(target, Math.ceil(GROWTH_REQUESTS / 5))
    const r = await sequential(target, GROWTH_REQUESTS)
    const first = base.get(e.name)
    if (first === undefined) base.set(e.name, r.p50)
    // Flat: at most twice the smallest size's figure (and never held to less than +1 ms).
    const limit = first === undefined ? undefined : Math.max(2 * first, first + 1)
    rows.push({
      group: 'growth',
      name: `${e.name} p50`,
      size: label,
      value: r.p50,
      unit: 'ms',
      ...(limit === undefined
        ? {}
        : { budget: `≤ ${formatFigure(limit, 2)} ms (flat)`, ok: r.p50 <= limit && !r.failures }),
    })
  }
  rows.push({
    group: 'growth',
    name: 'server RSS during these requests (max)',
    size: label,
    value: rss.stop(),
    unit: 'MiB',
  })
  return rows
}

/** Saturation and steady-rate figures of the four endpoints, the bare ceiling and the RSS. */
async function measureApi(app: ServerChild, p: Prepared): Promise<BenchRow[]> {
  const label = `${sizeLabel(p.size)} users`
  const endpoints: (Endpoint & { size: string })[] = [
    { name: 'getUserInfo', path: '/api/user/getUserInfo', tokens: p.memberTokens, size: label },
    { name: 'balance', path: '/api/userAccount/balance', tokens: p.memberTokens, size: label },
    {
      name: 'balanceDetail',
      path: '/api/userAccount/balanceDetail?pageSize=20',
      tokens: [p.whaleToken],
      size: `${label}, ${sizeLabel(Number(process.env.BENCH_LOG_ROWS ?? p.size))} log rows`,
    },
    { name: 'news', path: '/api/main/news?pageNum=1&pageSize=10', size: label },
  ]
  const rows: BenchRow[] = []

  const bare = await startServerChild('api-server.ts', ['bare'], { ...process.env })
  try {
    const target = { port: bare.port, path: '/api/bare' }
    await expectAnswer(target)
    await saturate(target, { connections: CONNECTIONS, seconds: WARMUP_SECONDS })
    const r = await saturate(target, { connections: CONNECTIONS, seconds: SECONDS })
    console.info(`  bare Fastify: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms`)
    rows.push({
      group: 'api',
      name: 'bare Fastify route req/s at saturation (ceiling)',
      value: r.rps,
      unit: 'req/s',
    })
  } finally {
    await bare.stop()
  }

  const rss = sampleRss(app.pid)
  for (const e of endpoints) {
    const target = { port: app.port, path: e.path, ...(e.tokens ? { tokens: e.tokens } : {}) }
    await expectAnswer(target)
    await saturate(target, { connections: CONNECTIONS, seconds: WARMUP_SECONDS })
    const sat = await saturate(target, { connections: CONNECTIONS, seconds: SECONDS })
    const fixed = await steady(target, { rate: RATE, seconds: SECONDS, connections: CONNECTIONS })
    console.info(
      `  ${e.name}: ${sat.rps.toFixed(0)} req/s at saturation (p50 ${sat.p50.toFixed(2)} ms, p99 ${sat.p99.toFixed(2)} ms); at ${fixed.rps.toFixed(0)} req/s p50 ${fixed.p50.toFixed(2)} ms, p99 ${fixed.p99.toFixed(2)} ms; failures ${sat.failures + fixed.failures}`,
    )
    const reached = fixed.rps >= RATE * 0.95 && !fixed.failures
    rows.push(
      {
        group: 'api',
        name: `${e.name} req/s at saturation (${CONNECTIONS} connections)`,
        size: e.size,
        value: sat.rps,
        unit: 'req/s',
        budget: `≥ ${formatFigure(RATE)} req/s`,
        ok: sat.rps >= RATE && !sat.failures,
      },
      {
        group: 'api',
        name: `${e.name} p50 at ${formatFigure(RATE)} req/s`,
        size: e.size,
        value: fixed.p50,
        unit: 'ms',
      },
      {
        group: 'api',
        name: `${e.name} p99 at ${formatFigure(RATE)} req/s`,
        size: e.size,
        value: fixed.p99,
        unit: 'ms',
        budget: `< ${P99_BUDGET_MS} ms`,
        ok: reached && fixed.p99 < P99_BUDGET_MS,
      },
    )
  }
  rows.push({
    group: 'api',
    name: 'server RSS under load (max)',
    size: label,
    value: rss.stop(),
    unit: 'MiB',
  })
  return rows
}

/** Runs the growth sizes and/or the API figures; the API ones at the largest size. */
export async function benchApi(groups: { api: boolean; growth: boolean }): Promise<BenchRow[]> {
  const largest = Math.max(...SIZES)
  const sizes = groups.growth ? [...SIZES].sort((a, b) => a - b) : [largest]
  const server = await startBenchServer()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-bench-app-'))
  const rows: BenchRow[] = []
  const base = new Map<string, number>()
  console.info(
    `api benchmark on PostgreSQL ${server.version} over ${transport(server.url)}, ${os.cpus().length} cores, sizes ${sizes.map(sizeLabel).join(', ')}`,
  )
  try {
    for (const size of sizes) {
      const prepared = await prepare(server, size, groups.growth ? 'growth' : 'api')
      rows.push(...prepared.rows)
      const app = await startApp(prepared.url, dataDir)
      try {
        if (groups.growth) rows.push(...(await measureGrowth(app, prepared, base)))
        if (groups.api && size === largest) rows.push(...(await measureApi(app, prepared)))
      } finally {
        await app.stop()
        await server.dropDatabase(`hope_bench_api_${size}`)
      }
    }
  } finally {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  return rows
}
