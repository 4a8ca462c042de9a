import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { freePort, isAlive } from '../../../apps/server/src/lib/process.ts'

export { isAlive }

export const repoRoot = path.resolve(import.meta.dirname, '../../..')

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Waits until `check` is truthy, polling; throws naming `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 60_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(everyMs)
  }
}

/**
 * The environment of the app and its commands: the embedded database and chain under
 * `dataDir`, whatever the outer environment points at.
 */
function appEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    CHAIN_RPC_URL: '',
    CHAIN_ID: '',
    // Left out, not set empty: no process of the app has a key variable in its environment.
    HOT_WALLET_KEY: undefined,
    POR_PUBLISHER_KEY: undefined,
    HOT_WALLET_KEY_FILE: undefined,
    POR_PUBLISHER_KEY_FILE: undefined,
    SEED_DEMO: '',
  }
}

export interface ScriptResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs one of the server's commands (`apps/server/scripts/<name>`) against `dataDir`. */
export function runScript(
  name: string,
  dataDir: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(repoRoot, 'apps/server/scripts', name), ...args],
      {
        env: { ...appEnv(dataDir), ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

/**
 * The real app (`node apps/server/src/server.ts`) as a child process on 127.0.0.1 with its own
 * DATA_DIR: embedded PostgreSQL and Anvil started by the app. It can be killed at any moment
 * and started again on the same DATA_DIR and port.
 */
export class HopeServer {
  readonly dataDir: string
  readonly port: number
  readonly baseUrl: string
  private child: ChildProcess | null = null
  private log = ''
  /** Starts of the app on this DATA_DIR, the first included. */
  starts = 0
  /** Faults injected on this app: kills, stops. */
  faults = 0

  private constructor(dataDir: string, port: number) {
    this.dataDir = dataDir
    this.port = port
    this.baseUrl = `http://127.0.0.1:${port}`
  }

  static async create(): Promise<HopeServer> {
    // Under the OS temp folder: the embedded PostgreSQL runs as the `postgres` OS user when
    // we are root, and must reach its data directory.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-faults-'))
    fs.chmodSync(dataDir, 0o755)
    return new HopeServer(dataDir, await freePort())
  }

  /** The app's own output, for failure messages. */
  output(tail = 4_000): string {
    return this.log.slice(-tail)
  }

  async start(env: NodeJS.ProcessEnv = {}): Promise<void> {
    if (this.running) throw new Error('the app is running already')
    const child = spawn(process.execPath, [path.join(repoRoot, 'apps/server/src/server.ts')], {
      env: {
        ...appEnv(this.dataDir),
        PORT: String(this.port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, with the PostgreSQL and Anvil it starts: killable as a whole.
      detached: true,
    })
    this.child = child
    this.starts += 1
    child.stdout?.on('data', (d) => (this.log = (this.log + d).slice(-200_000)))
    child.stderr?.on('data', (d) => (this.log = (this.log + d).slice(-200_000)))
    const deadline = Date.now() + 120_000
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`the app exited (${child.exitCode}) while starting:\n${this.output()}`)
      try {
        const res = await fetch(`${this.baseUrl}/api/main/getETLDPrice`, { method: 'POST' })
        if (res.status === 200) return
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`the app did not answer:\n${this.output()}`)
      await sleep(200)
    }
  }

  /**
   * Ends the app's process with `signal` (SIGKILL: no shutdown at all) and waits for it; with
   * `group`, its embedded PostgreSQL and Anvil get the signal too, as when a machine loses power.
   */
  async kill(signal: NodeJS.Signals = 'SIGKILL', opts: { group?: boolean } = {}): Promise<void> {
    const child = this.child
    if (!child || !this.running) return
    const exited = new Promise((r) => child.once('exit', r))
    if (opts.group) process.kill(-child.pid!, signal)
    else child.kill(signal)
    if (signal === 'SIGKILL') this.faults += 1
    await Promise.race([exited, sleep(30_000)])
  }

  /** Stops the app the way an operator does (SIGTERM); how it ended and how long it took. */
  async stop(): Promise<{ code: number | null; ms: number }> {
    const child = this.child
    if (!child || !this.running) throw new Error('the app is not running')
    const started = Date.now()
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
    child.kill('SIGTERM')
    const code = await Promise.race([exited, sleep(60_000).then(() => null)])
    return { code, ms: Date.now() - started }
  }

  /**
   * Starts the app expecting it to fail: waits for its exit (at most `timeoutMs`) and answers
   * its status and output. A start that keeps running past the limit is killed and answers null.
   */
  async runUntilExit(
    env: NodeJS.ProcessEnv = {},
    timeoutMs = 120_000,
  ): Promise<{ code: number | null; output: string }> {
    if (this.running) throw new Error('the app is running already')
    this.log = ''
    const child = spawn(process.execPath, [path.join(repoRoot, 'apps/server/src/server.ts')], {
      env: { ...appEnv(this.dataDir), PORT: String(this.port), HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    this.child = child
    this.starts += 1
    child.stdout?.on('data', (d) => (this.log += d))
    child.stderr?.on('data', (d) => (this.log += d))
    let timer: NodeJS.Timeout | undefined
    const code = await Promise.race([
      new Promise<number | null>((r) => child.once('exit', (c) => r(c))),
      new Promise<null>((r) => (timer = setTimeout(() => r(null), timeoutMs))),
    ])
    clearTimeout(timer)
    if (this.running) await this.kill('SIGKILL', { group: true })
    return { code, output: this.log }
  }

  /** The app's process id (the primary, with WEB_CONCURRENCY > 1), while it runs. */
  get pid(): number | null {
    return this.running ? this.child!.pid! : null
  }

  /** Whether the app's process is still alive (not crashed). */
  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null
  }

  /** The embedded PostgreSQL's postmaster, from its pid file. */
  postmasterPid(): number | null {
    const file = path.join(this.dataDir, 'pg', 'postmaster.pid')
    if (!fs.existsSync(file)) return null
    const pid = Number(fs.readFileSync(file, 'utf8').split('\n')[0])
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null
  }

  /** The embedded PostgreSQL's URL (any database of it), while it runs. */
  databaseUrl(): string {
    const lines = fs.readFileSync(path.join(this.dataDir, 'pg', 'postmaster.pid'), 'utf8')
    const port = Number(lines.split('\n')[3])
    return `postgres://postgres:hope-local@127.0.0.1:${port}/postgres`
  }

  /** The local chain's JSON-RPC URL, from the note the app keeps under DATA_DIR. */
  chainRpcUrl(): string {
    const note = JSON.parse(
      fs.readFileSync(path.join(this.dataDir, 'chain', 'anvil.json'), 'utf8'),
    ) as { url: string }
    return note.url
  }

  /** The local chain's process, from its pid file. */
  anvilPid(): number | null {
    const file = path.join(this.dataDir, 'chain', 'anvil.pid')
    if (!fs.existsSync(file)) return null
    const pid = Number(fs.readFileSync(file, 'utf8').trim())
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null
  }

  /** A small pool on the app's database, for the checks. */
  openPool(): pg.Pool {
    const pool = new pg.Pool({ connectionString: this.databaseUrl(), max: 4 })
    pool.on('error', () => {})
    return pool
  }

  /** The file's figures, for the note: faults injected and app starts. */
  summary(name: string, answered: number): string {
    return `[faults] ${name}: ${this.faults} fault(s) injected, ${this.starts} app start(s), ${answered} requests answered`
  }

  /** Stops the app gracefully, then whatever it left behind, and removes DATA_DIR. */
  async dispose(): Promise<void> {
    await this.kill('SIGTERM')
    const pgPid = this.postmasterPid()
    // SIGQUIT: PostgreSQL's immediate shutdown, its children included.
    if (pgPid) process.kill(pgPid, 'SIGQUIT')
    const anvil = this.anvilPid()
    if (anvil) process.kill(anvil, 'SIGKILL')
    await waitFor('leftovers to exit', () => !(pgPid && isAlive(pgPid)), 15_000).catch(() => {})
    fs.rmSync(this.dataDir, { recursive: true, force: true })
  }
}
