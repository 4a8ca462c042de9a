// The PostgreSQL server a benchmark runs against: BENCH_DATABASE_URL when given, else an
// embedded one under the OS temp directory, removed afterwards. Each benchmark makes its own
// databases on it.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded.ts'

export interface BenchServer {
  /** A server-level URL (its own database is `postgres`). */
  url: string
  version: string
  /** A fresh, empty database on the server; dropped first when it exists. */
  createDatabase(name: string): Promise<string>
  dropDatabase(name: string): Promise<void>
  stop(): Promise<void>
}

/** How a URL reaches its server: a Unix socket (a `host` that is a directory) or TCP. */
export function transport(url: string): string {
  return new URL(url).searchParams.get('host')?.startsWith('/') ? 'Unix socket' : 'TCP'
}

export function databaseUrl(serverUrl: string, name: string): string {
  const u = new URL(serverUrl)
  u.pathname = `/${name}`
  return u.toString()
}

export async function startBenchServer(): Promise<BenchServer> {
  let url = process.env.BENCH_DATABASE_URL
  let stopEmbedded = async () => {}
  let tmp: string | null = null
  if (!url) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-bench-'))
    // The embedded server runs as the `postgres` OS user when we are root: it must reach this.
    fs.chmodSync(tmp, 0o755)
    const embedded = await startEmbeddedPostgres(path.join(tmp, 'pg'))
    url = embedded.url
    stopEmbedded = () => embedded.stop()
  }
  const admin = async <T>(f: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: url })
    await c.connect()
    try {
      return await f(c)
    } finally {
      await c.end()
    }
  }
  const version = await admin(
    async (c) => (await c.query('SHOW server_version')).rows[0].server_version as string,
  )
  const dropDatabase = (name: string) =>
    admin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    })
  return {
    url,
    version,
    async createDatabase(name) {
      await dropDatabase(name)
      await admin((c) => c.query(`CREATE DATABASE ${name}`))
      return databaseUrl(url, name)
    },
    dropDatabase,
    async stop() {
      await stopEmbedded()
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
    },
  }
}
