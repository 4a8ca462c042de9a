// The `por` group: a proof-of-liabilities snapshot of 10k, 100k and 1M users (BENCH_POR_USERS)
// published as the server publishes it (the tree built off the main thread, then stored in one
// transaction), each in a process of its own against one PostgreSQL server: publish time and
// peak RSS, bytes stored per user, and the time to build one user's proof on request from the
// database, as `por/myProof` does.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { startBenchServer } from './postgres.ts'
import { sizeLabel, type BenchRow } from './table.ts'

const SIZES = (process.env.BENCH_POR_USERS ?? '10000,100000,1000000').split(',').map(Number)
/** 1,000,000 users published within 5 minutes and 1 GB on a 2-core machine. */
const BUDGET_SECONDS_AT_1M = 300
const BUDGET_MIB_AT_1M = 1024
/** Stored per user per snapshot, and a proof built on request. */
const BUDGET_BYTES_PER_USER = 1024
const BUDGET_PROOF_MS = 50

export interface Figures {
  buildSeconds: number
  storeSeconds: number
  leaves: number
  peakRssMiB: number
  bytesPerUser: number
  proofP50Ms: number
  proofP99Ms: number
  nonZeroSiblingsMedian: number
  nonZeroSiblingsMax: number
}

export async function benchPor(): Promise<BenchRow[]> {
  const server = await startBenchServer()
  const rows: BenchRow[] = []
  try {
    for (const users of SIZES) {
      const name = `hope_bench_por_${users}`
      const url = await server.createDatabase(name)
      const f = publishInProcess(users, url)
      await server.dropDatabase(name)
      rows.push(...porRows(users, f))
    }
  } finally {
    await server.stop()
  }
  return rows
}

/** A snapshot of `users` published in a process of its own (por-build.ts): its figures. */
function publishInProcess(users: number, url: string): Figures {
  const out = execFileSync(
    process.execPath,
    [path.join(import.meta.dirname, 'por-build.ts'), String(users), url],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  )
  return JSON.parse(out.trim().split('\n').pop()!) as Figures
}

/** One size's line and rows, held to the budgets (time and memory only at 1M users). */
export function porRows(users: number, f: Figures): BenchRow[] {
  const seconds = f.buildSeconds + f.storeSeconds
  const size = `${sizeLabel(users)} users`
  console.info(
    `por: ${size}, ${f.leaves} leaves, ${seconds.toFixed(1)} s, ${f.peakRssMiB.toFixed(0)} MiB, ${f.bytesPerUser.toFixed(0)} B/user, proof p99 ${f.proofP99Ms.toFixed(1)} ms`,
  )
  const at1M = users === 1_000_000
  const within = (value: number, most: number, unit: string) => ({
    budget: `≤ ${most} ${unit}`,
    ok: value <= most,
  })
  return [
    {
      group: 'por',
      name: 'liabilities snapshot publish: tree build (worker) + store',
      size,
      value: seconds,
      unit: 's',
      ...(at1M ? within(seconds, BUDGET_SECONDS_AT_1M, 's') : {}),
    },
    {
      group: 'por',
      name: 'of which the tree build',
      size,
      value: f.buildSeconds,
      unit: 's',
    },
    {
      group: 'por',
      name: 'liabilities snapshot publish peak RSS',
      size,
      value: f.peakRssMiB,
      unit: 'MiB',
      ...(at1M ? within(f.peakRssMiB, BUDGET_MIB_AT_1M, 'MiB') : {}),
    },
    {
      group: 'por',
      name: 'bytes stored per user per snapshot (tables and indexes)',
      size,
      value: f.bytesPerUser,
      unit: 'B',
      ...within(f.bytesPerUser, BUDGET_BYTES_PER_USER, 'B'),
    },
    {
      group: 'por',
      name: 'one user proof built on request from the database, p50',
      size,
      value: f.proofP50Ms,
      unit: 'ms',
      ...within(f.proofP50Ms, BUDGET_PROOF_MS, 'ms'),
    },
    {
      group: 'por',
      name: 'one user proof built on request from the database, p99',
      size,
      value: f.proofP99Ms,
      unit: 'ms',
      ...within(f.proofP99Ms, BUDGET_PROOF_MS, 'ms'),
    },
    {
      group: 'por',
      name: 'non-zero sibling sums on one path, median (of 32)',
      size,
      value: f.nonZeroSiblingsMedian,
      unit: 'sums',
    },
    {
      group: 'por',
      name: 'non-zero sibling sums on one path, most (of 32)',
      size,
      value: f.nonZeroSiblingsMax,
      unit: 'sums',
    },
  ]
}
