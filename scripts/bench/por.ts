// The `por` group: the proof-of-liabilities tree built off the main thread for 10k, 100k and
// 1M users (BENCH_POR_USERS), each in a process of its own: build time (packing the balances
// and the worker's build), peak RSS, and the time to cut one user's proof from the built tree.
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { sizeLabel, type BenchRow } from './table.ts'

const SIZES = (process.env.BENCH_POR_USERS ?? '10000,100000,1000000').split(',').map(Number)
/** 1,000,000 users built within 5 minutes on a 2-core machine. */
const BUDGET_SECONDS_AT_1M = 300

interface Figures {
  packSeconds: number
  buildSeconds: number
  leaves: number
  proofMs: number
  peakRssMiB: number
  nonZeroSiblingsMedian: number
  nonZeroSiblingsMax: number
}

export async function benchPor(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  for (const users of SIZES) {
    const out = execFileSync(
      process.execPath,
      [path.join(import.meta.dirname, 'por-build.ts'), String(users)],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      },
    )
    const f = JSON.parse(out.trim().split('\n').pop()!) as Figures
    const seconds = f.packSeconds + f.buildSeconds
    const size = `${sizeLabel(users)} users`
    console.info(
      `por: ${size}, ${f.leaves} leaves, ${seconds.toFixed(1)} s, ${f.peakRssMiB.toFixed(0)} MiB`,
    )
    const budget =
      users === 1_000_000
        ? { budget: `≤ ${BUDGET_SECONDS_AT_1M} s`, ok: seconds <= BUDGET_SECONDS_AT_1M }
        : {}
    rows.push(
      {
        group: 'por',
        name: 'liabilities tree build (worker)',
        size,
        value: seconds,
        unit: 's',
        ...budget,
      },
      {
        group: 'por',
        name: 'liabilities tree build peak RSS',
        size,
        value: f.peakRssMiB,
        unit: 'MiB',
      },
      {
        group: 'por',
        name: 'one user proof from the built tree',
        size,
        value: f.proofMs,
        unit: 'ms',
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
    )
  }
  return rows
}
