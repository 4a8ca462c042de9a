// Start benchmark: from spawning `node apps/server/dist/server.js` (what `npm start` runs after
// its build) to the first answered API request, on a fresh DATA_DIR (initialises PostgreSQL,
// migrates, seeds, deploys the local chain's token) and on that same DATA_DIR again.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../../apps/server/src/lib/process.ts'
import { loadRow, type BenchRow } from './table.ts'

const SERVER_DIR = path.resolve(import.meta.dirname, '../../apps/server')
const SERVER = path.join(SERVER_DIR, 'dist/server.js')
/**
 * An existing data directory serves its first request within 1 s: the app answers once the
 * database is up and migrated and the app is built; the local chain's setup runs while the app
 * is built, and the background jobs start after the first answer, when the signer answers.
 */
const EXISTING_BUDGET_S = 1
/** A fresh one (PostgreSQL initialised, migrated, seeded, the chain's contracts deployed) in 5 s. */
const FRESH_BUDGET_S = 5
const START_TIMEOUT_MS = 180_000

export interface AppServer {
  baseUrl: string
  /** Seconds from spawning the process to its first answered request. */
  startSeconds: number
  stop(): Promise<void>
}

/** A temporary data directory the embedded PostgreSQL (run as `postgres` under root) can reach. */
export function makeDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-bench-data-'))
  fs.chmodSync(dir, 0o755)
  return dir
}

async function answered(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/api/main/getETLDPrice`, {
      method: 'POST',
      signal: AbortSignal.timeout(1_000),
    })
    return res.status === 200 && ((await res.json()) as { code?: number }).code === 200
  } catch {
    return false
  }
}

/** Bundles the server as `npm start`'s build does, so the figures are of the current sources. */
export function buildServer(): void {
  const res = spawnSync(process.execPath, [path.join(SERVER_DIR, 'scripts/build-server.ts')], {
    stdio: 'inherit',
  })
  if (res.status !== 0) throw new Error('the server bundle did not build')
}

/** Starts the app as `npm start` does, on 127.0.0.1, and waits for its first answer. */
export async function launchServer(
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<AppServer & { pid: number }> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const output: string[] = []
  const t0 = performance.now()
  const child: ChildProcess = spawn(process.execPath, [SERVER], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const keep = (b: Buffer) => {
    output.push(b.toString())
    if (output.length > 40) output.shift()
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    await exited
    clearTimeout(timer)
  }
  while (!(await answered(baseUrl))) {
    if (child.exitCode !== null || performance.now() - t0 > START_TIMEOUT_MS) {
      await stop()
      throw new Error(`the server did not answer:\n${output.join('').slice(-3000)}`)
    }
    await new Promise((r) => setTimeout(r, 20))
  }
  return { baseUrl, startSeconds: (performance.now() - t0) / 1000, stop, pid: child.pid! }
}

export async function benchStart(): Promise<BenchRow[]> {
  const loadBefore = os.loadavg()[0]!
  const dataDir = makeDataDir()
  try {
    const fresh = await launchServer(dataDir)
    await fresh.stop()
    const existing = await launchServer(dataDir)
    await existing.stop()
    console.info(
      `  start: fresh DATA_DIR ${fresh.startSeconds.toFixed(2)} s, existing ${existing.startSeconds.toFixed(2)} s`,
    )
    /** The time from spawn to the first answered request, within `budget` seconds. */
    const startRow = (size: string, seconds: number, budget: number): BenchRow => ({
      group: 'start',
      name: 'spawn to first answered request',
      size,
      value: seconds,
      unit: 's',
      budget: `≤ ${budget} s`,
      ok: seconds <= budget,
    })
    return [
      startRow('fresh DATA_DIR', fresh.startSeconds, FRESH_BUDGET_S),
      startRow('existing DATA_DIR', existing.startSeconds, EXISTING_BUDGET_S),
      loadRow('start', loadBefore),
    ]
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
