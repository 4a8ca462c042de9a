// The one table `npm run bench` prints and writes under bench/results/.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** One measured figure, with the budget it is held to when it has one. */
export interface BenchRow {
  /** The area: web, api, ledger, settlement, growth, start. */
  group: string
  /** What was measured, e.g. "getUserInfo req/s at saturation" or "first screen JS (gzip)". */
  name: string
  /** The data size it was measured at (e.g. "100k users"), when it depends on one. */
  size?: string
  value: number
  unit: string
  /** The budget as written in the issue, e.g. "≤ 120 KB" or "≥ 2000 req/s". */
  budget?: string
  /** Whether the figure meets its budget; absent when it has none. */
  ok?: boolean
}

/** Formats a figure with at most `digits` decimals and thousands separators. */
export function formatFigure(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return '-'
  return value.toLocaleString('en-US', { maximumFractionDigits: digits })
}

/** A data size for the size column: 10000 → "10k", 1000000 → "1M". */
export function sizeLabel(n: number): string {
  if (n >= 1_000_000 && n % 100_000 === 0) return `${n / 1_000_000}M`
  if (n >= 1_000 && n % 100 === 0) return `${n / 1_000}k`
  return String(n)
}

/** Prints the rows as one Markdown table. */
export function printTable(rows: BenchRow[]): void {
  const header = ['group', 'figure', 'size', 'value', 'unit', 'budget', 'ok']
  const cells = rows.map((r) => [
    r.group,
    r.name,
    r.size ?? '',
    formatFigure(r.value),
    r.unit,
    r.budget ?? '',
    r.ok === undefined ? '' : r.ok ? 'yes' : 'NO',
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)))
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`
  console.info(line(header))
  console.info(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const c of cells) console.info(line(c))
}

/** Writes the rows with the machine they were measured on; answers the file's path. */
export function writeResults(rows: BenchRow[], dir = path.resolve('bench/results')): string {
  fs.mkdirSync(dir, { recursive: true })
  const at = new Date()
  const file = path.join(dir, `${at.toISOString().replace(/[:.]/g, '-')}.json`)
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? '',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  }
  fs.writeFileSync(file, `${JSON.stringify({ at: at.toISOString(), machine, rows }, null, 2)}\n`)
  return file
}

/**
 * The machine's 1-minute load average before a group ran and after it, as a row beside its
 * figures: a figure measured on a busy machine says so.
 */
export function loadRow(group: string, before: number, how = ''): BenchRow {
  return {
    group,
    name: 'machine load average (1 min), before / after',
    value: before,
    unit: `/ ${os.loadavg()[0]!.toFixed(2)} on ${os.availableParallelism()} cores${how ? `; ${how}` : ''}`,
  }
}
