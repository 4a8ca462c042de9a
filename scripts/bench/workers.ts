// The `workers` group: API throughput at saturation with one and with two server workers
// (WEB_CONCURRENCY) on this machine, and the CPU each side used (the server's node processes,
// and the load generator in this process). Bounded: BENCH_API_SECONDS per route and count.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { buildLoginMessage } from '@hope/api'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { DEMO_ROOT } from '../../apps/server/src/db/seed.ts'
import { saturate } from './load.ts'
import { launchServer, makeDataDir } from './start.ts'
import type { BenchRow } from './table.ts'

const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 64)
const TICKS = 100 // USER_HZ on Linux

/** The server's node processes: the one started and, with workers, its workers. */
function nodeProcesses(pid: number): number[] {
  const children = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], {
    encoding: 'utf8',
  })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    // Everything but the embedded database and the chain the primary started.
    .filter(([p, comm]) => p && comm !== 'postgres' && !comm?.startsWith('anvil'))
    .map(([p]) => Number(p))
  return [pid, ...children]
}

/** CPU seconds used so far by `pids` (user + system). */
function cpuSeconds(pids: number[]): number {
  let ticks = 0
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // gone
    }
  }
  return ticks / TICKS
}

async function signIn(baseUrl: string): Promise<string> {
  const account = privateKeyToAccount(generatePrivateKey())
  const message = buildLoginMessage(Date.now())
  const q = new URLSearchParams({
    username: account.address,
    message,
    signature: await account.signMessage({ message }),
    invitationCode: DEMO_ROOT.referralCode,
  })
  const res = await fetch(`${baseUrl}/api/user/register?${q}`, { method: 'POST' })
  const body = (await res.json()) as { code: number; data: { token: string } }
  if (body.code !== 200) throw new Error(`register: ${JSON.stringify(body)}`)
  return body.data.token
}

interface Side {
  rps: number
  serverCores: number
  loadCores: number
}

async function measure(workers: number, path: string): Promise<Side> {
  const dataDir = makeDataDir()
  const server = await launchServer(dataDir, {
    WEB_CONCURRENCY: String(workers),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  })
  try {
    const token = await signIn(server.baseUrl)
    const port = Number(new URL(server.baseUrl).port)
    const target = { port, path, tokens: [token] }
    await saturate(target, { connections: CONNECTIONS, seconds: 2 })
    const pids = nodeProcesses(server.pid)
    const cpu0 = cpuSeconds(pids)
    const own0 = process.cpuUsage()
    const t0 = performance.now()
    const result = await saturate(target, { connections: CONNECTIONS, seconds: SECONDS })
    const wall = (performance.now() - t0) / 1000
    const own = process.cpuUsage(own0)
    if (result.failures) console.warn(`workers=${workers} ${path}: ${result.failures} failures`)
    return {
      rps: result.rps,
      serverCores: (cpuSeconds(pids) - cpu0) / wall,
      loadCores: (own.user + own.system) / 1e6 / wall,
    }
  } finally {
    await server.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

export async function benchWorkers(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  for (const [name, path] of [
    ['getUserInfo', '/api/user/getUserInfo'],
    ['balance', '/api/userAccount/balance'],
  ] as const) {
    const one = await measure(1, path)
    const two = await measure(2, path)
    const ratio = two.rps / one.rps
    for (const [n, side] of [
      [1, one],
      [2, two],
    ] as const) {
      rows.push({
        group: 'workers',
        name: `${name} req/s, ${n} worker(s)`,
        value: side.rps,
        unit: 'req/s',
      })
      rows.push({
        group: 'workers',
        name: `${name} CPU, ${n} worker(s): server / load generator`,
        value: side.serverCores,
        unit: `cores / ${side.loadCores.toFixed(2)} cores`,
      })
    }
    rows.push({
      group: 'workers',
      name: `${name} 2 workers / 1 worker`,
      value: ratio,
      unit: '×',
      budget: '≥ 1.5×',
      ok: ratio >= 1.5,
    })
  }
  return rows
}
