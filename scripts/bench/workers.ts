// The `workers` group: API throughput at saturation with one and with two server workers
// (WEB_CONCURRENCY) on this machine, and where the CPU went on each side.
//
// Both servers run side by side and are measured in turn (1, 2, 1, 2, … for
// BENCH_WORKERS_ROUNDS rounds per route), so that load from other processes on the machine
// falls on both alike; each figure is the median of its rounds. The load generator runs in its
// own process (cannon.ts), niced by BENCH_LOAD_NICE so that the server's processes come first
// when the cores are short. Each side's CPU is split into the server's node processes, its
// PostgreSQL, the load generator and everything else on the machine (from /proc/stat): on a
// 2-core machine the second worker can only go as far as the cores the others leave it, which
// the "per server core" ratio separates from how well the workers share the work.
// Bounded: BENCH_API_SECONDS per run, plus a warm-up of BENCH_WARMUP_SECONDS.
import { execFileSync, fork } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildLoginMessage } from '@hope/api'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { DEMO_ROOT } from '../../apps/server/src/db/seed.ts'
import type { CannonJob, CannonMessage } from './cannon.ts'
import { launchServer, makeDataDir } from './start.ts'
import { loadRow, type BenchRow } from './table.ts'

const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10)
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 64)
const ROUNDS = Number(process.env.BENCH_WORKERS_ROUNDS ?? 3)
const LOAD_NICE = Number(process.env.BENCH_LOAD_NICE ?? 5)
const TICKS = 100 // USER_HZ on Linux

/** The direct children of `pid`, with their command names. */
function childrenOf(pid: number): { pid: number; comm: string }[] {
  let out = ''
  try {
    out = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' })
  } catch {
    // no children: ps exits 1
  }
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([p]) => p)
    .map(([p, comm]) => ({ pid: Number(p), comm: comm ?? '' }))
}

/** The server's node processes: the one started and, with workers, its workers. */
function nodeProcesses(pid: number): number[] {
  return [
    pid,
    ...childrenOf(pid)
      // Everything but the embedded database and the chain the server started.
      .filter((c) => c.comm !== 'postgres' && !c.comm.startsWith('anvil'))
      .map((c) => c.pid),
  ]
}

/** The embedded PostgreSQL under `dataDir`: its postmaster and every backend and worker. */
function databaseProcesses(dataDir: string): number[] {
  const postmaster = Number(
    fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0],
  )
  return [postmaster, ...childrenOf(postmaster).map((c) => c.pid)]
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

/** CPU seconds the whole machine has been busy (every core, every process). */
function machineBusySeconds(): number {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!
  // cpu user nice system idle iowait irq softirq steal …
  const [user, nice, system, , , irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number)
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS
}

/** A signed login payload of `account`, as the spec's client sends it (query string). */
async function loginQuery(account: ReturnType<typeof privateKeyToAccount>): Promise<string> {
  const message = buildLoginMessage(Date.now())
  return new URLSearchParams({
    username: account.address,
    message,
    signature: await account.signMessage({ message }),
  }).toString()
}

async function signIn(baseUrl: string): Promise<string> {
  const account = privateKeyToAccount(generatePrivateKey())
  const message = buildLoginMessage(Date.now())
  const q = new URLSearchParams({
    username: account.address,
    message,
    signature: await account.signMessage({ message }),
    pusername: DEMO_ROOT.userName,
  })
  const res = await fetch(`${baseUrl}/api/user/register?${q}`, { method: 'POST' })
  const body = (await res.json()) as { code: number; data: { token: string } }
  if (body.code !== 200) throw new Error(`register: ${JSON.stringify(body)}`)
  return body.data.token
}

interface Side {
  rps: number
  failures: number
  /** Every answer per second, refusals included (2xx and the rest). */
  answered: number
  /** Cores used on average during the run by the server's node processes. */
  server: number
  database: number
  load: number
  /** Every other process on the machine (other users' work included). */
  other: number
}

interface Server {
  workers: number
  pid: number
  dataDir: string
  port: number
  token: string
  stop(): Promise<void>
}

async function startServer(workers: number, env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const dataDir = makeDataDir()
  const server = await launchServer(dataDir, {
    WEB_CONCURRENCY: String(workers),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ...env,
  })
  return {
    workers,
    pid: server.pid,
    dataDir,
    port: Number(new URL(server.baseUrl).port),
    token: await signIn(server.baseUrl),
    async stop() {
      await server.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** One run of the load generator against `server`, with the CPU each side used meanwhile. */
function measure(server: Server, route: string, tokens = [server.token]): Promise<Side> {
  const job: CannonJob = {
    target: { port: server.port, path: route, tokens },
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
  }
  const child = fork(path.join(import.meta.dirname, 'cannon.ts'), [JSON.stringify(job)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  if (LOAD_NICE) os.setPriority(child.pid!, LOAD_NICE)
  const snapshot = () => {
    const pids = nodeProcesses(server.pid)
    return {
      server: cpuSeconds(pids),
      database: cpuSeconds(databaseProcesses(server.dataDir)),
      machine: machineBusySeconds(),
    }
  }
  return new Promise((resolve, reject) => {
    let before: ReturnType<typeof snapshot> | null = null
    child.on('message', (m: CannonMessage) => {
      if (m.type === 'start') before = snapshot()
      else if (before) {
        const after = snapshot()
        const per = (s: number) => s / m.wallSeconds
        const server = per(after.server - before.server)
        const database = per(after.database - before.database)
        const load = per(m.cpuSeconds)
        resolve({
          rps: m.result.rps,
          failures: m.result.failures,
          answered: (m.result.requests + m.result.failures) / m.wallSeconds,
          server,
          database,
          load,
          other: Math.max(0, per(after.machine - before.machine) - server - database - load),
        })
      }
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the load generator exited with ${code}`))
    })
  })
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

/** The median of each figure over the rounds (each figure on its own). */
function medianSide(sides: Side[]): Side {
  const pick = (k: keyof Side) => median(sides.map((s) => s[k]))
  return {
    rps: pick('rps'),
    failures: sides.reduce((t, s) => t + s.failures, 0),
    answered: pick('answered'),
    server: pick('server'),
    database: pick('database'),
    load: pick('load'),
    other: pick('other'),
  }
}

export async function benchWorkers(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const loadBefore = os.loadavg()[0]!
  const one = await startServer(1)
  let two: Server | null = null
  try {
    two = await startServer(2)
    for (const [name, route] of [
      ['getUserInfo', '/api/user/getUserInfo'],
      ['balance', '/api/userAccount/balance'],
    ] as const) {
      const runs = new Map<number, Side[]>([
        [1, []],
        [2, []],
      ])
      for (let round = 0; round < ROUNDS; round++)
        for (const server of [one, two])
          runs.get(server.workers)!.push(await measure(server, route))
      const sides = new Map([...runs].map(([n, s]) => [n, medianSide(s)]))
      for (const [n, side] of sides) {
        if (side.failures) console.warn(`workers=${n} ${name}: ${side.failures} failures`)
        rows.push({
          group: 'workers',
          name: `${name} req/s, ${n} worker(s)`,
          value: side.rps,
          unit: 'req/s',
        })
        rows.push({
          group: 'workers',
          name: `${name} CPU, ${n} worker(s): server node processes`,
          value: side.server,
          unit:
            `cores; PostgreSQL ${side.database.toFixed(2)}, load generator ` +
            `${side.load.toFixed(2)}, other processes ${side.other.toFixed(2)}`,
        })
      }
      const a = sides.get(1)!
      const b = sides.get(2)!
      const ratio = b.rps / a.rps
      rows.push({
        group: 'workers',
        name: `${name} 2 workers / 1 worker`,
        value: ratio,
        unit: '×',
        budget: '≥ 1.5×',
        ok: ratio >= 1.5,
      })
      // Requests per CPU-second of the server and its database: about 1 when the second worker
      // does as much with a core as the first, whatever cores the machine left them.
      rows.push({
        group: 'workers',
        name: `${name} req per server core (node + PostgreSQL), 2 workers / 1 worker`,
        value: b.rps / (b.server + b.database) / (a.rps / (a.server + a.database)),
        unit: '×',
      })
    }
  } finally {
    await two?.stop()
    await one.stop()
  }
  rows.push(...(await benchLoginLimits()))
  rows.push(loadRow('workers', loadBefore, `${ROUNDS} rounds of ${SECONDS} s per side, median`))
  return rows
}

/** Whether a Redis answers PING at `url` (host and port only), within a second. */
async function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  const net = await import('node:net')
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.once('error', () => done(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')))
  })
}

/**
 * Login attempts through the shared limiter with two workers: the same signed login of one
 * address again and again from one IP, so that after the first few every answer is the
 * limiter's refusal, and the figure is what the limiter's store sustains: Redis (one Lua call
 * per attempt) against PostgreSQL (one upsert of an UNLOGGED row per attempt).
 */
async function benchLoginLimits(): Promise<BenchRow[]> {
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'
  if (!(await redisAnswers(redisUrl))) {
    console.warn(`workers: no Redis at ${redisUrl}; the login-limiter rows are left out`)
    return []
  }
  const rows: BenchRow[] = []
  const prefix = `hope-bench-${process.pid}:`
  for (const [store, env] of [
    ['Redis', { REDIS_URL: redisUrl, REDIS_PREFIX: prefix }],
    ['PostgreSQL', {}],
  ] as const) {
    const server = await startServer(2, env)
    try {
      const account = privateKeyToAccount(generatePrivateKey())
      const baseUrl = `http://127.0.0.1:${server.port}`
      const register = new URLSearchParams(await loginQuery(account))
      register.set('pusername', DEMO_ROOT.userName)
      await fetch(`${baseUrl}/api/user/register?${register}`, { method: 'POST' })
      const side = await measure(server, `/api/user/logining?${await loginQuery(account)}`, [])
      rows.push({
        group: 'workers',
        name: `login attempts/s through the limiter, 2 workers, ${store}`,
        value: side.answered,
        unit:
          `attempts/s answered; server ${side.server.toFixed(2)} cores, PostgreSQL ` +
          `${side.database.toFixed(2)}; ${side.failures} refused by the limiter`,
      })
    } finally {
      await server.stop()
    }
  }
  return rows
}
