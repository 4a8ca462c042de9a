import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { migrate } from '../../../apps/server/src/db/migrate.ts'
import { seedDemo } from '../../../apps/server/src/db/seed.ts'
import { createSettingsService } from '../../../apps/server/src/modules/settings/settings.service.ts'
import { isAlive, waitFor, type HopeServer } from './server.ts'

/** The embedded PostgreSQL's postmaster and every process it runs (backends, workers). */
export function postgresPids(server: HopeServer): number[] {
  const postmaster = server.postmasterPid()
  if (!postmaster) return []
  const children = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after ')'
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster
      } catch {
        return false
      }
    })
    .map(Number)
  return [postmaster, ...children]
}

/** Freezes the whole server (SIGSTOP): connections stay open, nothing answers. */
export function freezePostgres(server: HopeServer): number[] {
  const pids = postgresPids(server)
  if (!pids.length) throw new Error('the embedded PostgreSQL is not running')
  for (const pid of pids) process.kill(pid, 'SIGSTOP')
  server.faults += 1
  return pids
}

export function thawPostgres(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGCONT')
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * Stops the server (fast shutdown: sessions are ended, new connections refused) and returns
 * the command line it ran with, to start it again the way the app did.
 */
export async function stopPostgres(server: HopeServer): Promise<string[]> {
  const pid = server.postmasterPid()
  if (!pid) throw new Error('the embedded PostgreSQL is not running')
  const opts = fs.readFileSync(path.join(server.dataDir, 'pg', 'postmaster.opts'), 'utf8').trim()
  // postmaster.opts: the binary, then each argument in double quotes
  const [binary, ...rest] = opts.split(' ')
  const args = [...rest.join(' ').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!)
  process.kill(pid, 'SIGINT')
  await waitFor('PostgreSQL to stop', () => !isAlive(pid), 30_000, 50)
  server.faults += 1
  return [binary!, ...args]
}

/** Starts the server again with its own command line, as the OS user that owns its data. */
export async function startPostgres(server: HopeServer, command: string[]): Promise<number> {
  const st = fs.statSync(path.join(server.dataDir, 'pg'))
  const child = spawn(command[0]!, command.slice(1), {
    uid: st.uid,
    gid: st.gid,
    detached: true,
    stdio: 'ignore',
  })
  child.unref()
  // postmaster.pid's eighth line turns to "ready" once it accepts connections.
  const pidFile = path.join(server.dataDir, 'pg', 'postmaster.pid')
  await waitFor(
    'PostgreSQL to accept connections',
    () => {
      try {
        const lines = fs.readFileSync(pidFile, 'utf8').split('\n')
        return Number(lines[0]) === child.pid && lines[7]?.trim() === 'ready'
      } catch {
        return false
      }
    },
    30_000,
    100,
  )
  return child.pid!
}

/** Creates database `name` on the PostgreSQL server at `serverUrl`, and returns its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  await onServer(serverUrl, `CREATE DATABASE ${name}`)
  const u = new URL(serverUrl)
  u.pathname = `/${name}`
  return u.toString()
}

/**
 * Database `name` made on the server at `serverUrl` and prepared once, as a cluster's primary
 * prepares it (migrated, seeded, `confirmations` set), for the servers to find done: its URL and
 * a small pool on it.
 */
export async function createPreparedDatabase(
  serverUrl: string,
  name: string,
  confirmations: number,
): Promise<{ databaseUrl: string; pool: pg.Pool }> {
  const databaseUrl = await createDatabase(serverUrl, name)
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 })
  pool.on('error', () => {})
  await migrate(pool)
  await seedDemo(pool)
  await createSettingsService(pool).set('chainConfirmations', confirmations, 'fault tests')
  return { databaseUrl, pool }
}

/** Drops database `name` on the PostgreSQL server at `serverUrl`, its sessions with it. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(sql)
  } finally {
    await admin.end()
  }
}
