import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import type { Config } from '../config.ts'
import { listBaseBackups, pruneBackups, takeBaseBackup } from './backup.ts'
import { runningEmbeddedUrl, startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.ts'
import { APP_ROLE, openDatabase, roleUrl, SIGNER_ROLE, type Database } from './pool.ts'

/** The URLs the running app connects with, besides the owner's (migrations and backups). */
export interface RoleUrls {
  /** The web workers' and the jobs' (the role hope_app). */
  app: string
  /** The signer's (the role hope_signer). */
  signer: string
}

/**
 * APP_DATABASE_URL and SIGNER_DATABASE_URL when given, else the owner's URL with the role's
 * user in it.
 */
export function roleUrlsOf(config: Config, ownerUrl: string): RoleUrls {
  return {
    app: config.appDatabaseUrl ?? roleUrl(ownerUrl, APP_ROLE),
    signer: config.signerDatabaseUrl ?? roleUrl(ownerUrl, SIGNER_ROLE),
  }
}

/**
 * After the migrations, on the owner's connection (`pool`): the role URLs, each checked by a
 * connection, so that a role that cannot log in stops the start with what to set. The embedded
 * server (no DATABASE_URL) asks every role for a password and only this machine reaches it:
 * there the roles take the owner's password, and their URLs differ from the owner's in the user.
 */
export async function prepareRoleUrls(
  pool: pg.Pool,
  config: Config,
  ownerUrl: string,
): Promise<RoleUrls> {
  if (!config.databaseUrl) {
    const password = decodeURIComponent(new URL(ownerUrl).password)
    for (const role of [APP_ROLE, SIGNER_ROLE])
      await pool.query(
        `ALTER ROLE ${pg.escapeIdentifier(role)} PASSWORD ${pg.escapeLiteral(password)}`,
      )
  }
  const urls = roleUrlsOf(config, ownerUrl)
  await Promise.all([
    checkLogin(urls.app, 'APP_DATABASE_URL'),
    checkLogin(urls.signer, 'SIGNER_DATABASE_URL'),
  ])
  return urls
}

async function checkLogin(url: string, variable: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 })
  client.on('error', () => {})
  try {
    await client.connect()
  } catch (e) {
    const user = new URL(url).username
    throw new Error(
      `cannot connect to the database as ${user}: ${(e as Error).message}; ` +
        `set ${variable} to that role's URL (docs/deployment.md, "Database roles and keys")`,
      { cause: e },
    )
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * The app's embedded PostgreSQL under DATA_DIR/pg, archiving its write-ahead log to BACKUP_DIR
 * on every start (the app's and a command's alike), so that the archive has no gap. The app's
 * own start (`scheduleBackups`) also takes a base backup when the newest is older than
 * BACKUP_EVERY_HOURS, checked every ten minutes.
 */
export async function startAppPostgres(
  config: Config,
  log: (msg: string) => void = () => {},
  opts: { scheduleBackups?: boolean } = {},
): Promise<EmbeddedDatabase> {
  const dataDir = path.join(config.dataDir, 'pg')
  const db = await startEmbeddedPostgres(dataDir, log, {
    archive: { dir: config.backup.dir, timeoutS: config.backup.archiveTimeoutS },
  })
  const everyMs = config.backup.everyHours * 3_600_000
  if (!opts.scheduleBackups || !everyMs) return db
  let running: Promise<void> | null = null
  const check = async () => {
    try {
      const newest = listBaseBackups(config.backup.dir).at(-1)
      if (newest && Date.now() - Date.parse(newest.finishedAt) < everyMs) return
      const backup = await takeBaseBackup({
        url: db.url,
        dataDir,
        backupDir: config.backup.dir,
        files: { dataDir: config.dataDir, backupKey: config.backup.key },
      })
      const pruned = pruneBackups(config.backup.dir, config.backup.keepDays)
      log(
        `base backup ${backup.id} taken (${(backup.bytes / 1e6).toFixed(1)} MB); ` +
          `removed ${pruned.backups} old one(s) and ${pruned.walFiles} WAL file(s)`,
      )
    } catch (e) {
      log(`the scheduled base backup failed: ${(e as Error).message}`)
    }
  }
  const timer = setInterval(() => {
    running ??= check().finally(() => (running = null))
  }, 10 * 60_000)
  timer.unref()
  return {
    url: db.url,
    async stop() {
      clearInterval(timer)
      await running
      await db.stop()
    },
  }
}

/**
 * The app's database for a command run beside it: `DATABASE_URL`, else the embedded server
 * under DATA_DIR — the running one, or started for the command and stopped on close
 * (`initialise` makes a new one where there is none yet).
 */
export async function openAppDatabase(
  config: Config,
  opts: { initialise?: boolean; poolSize?: number } = {},
): Promise<Database> {
  let started: EmbeddedDatabase | null = null
  let url = config.databaseUrl
  if (!url) {
    const dir = path.join(config.dataDir, 'pg')
    if (!opts.initialise && !fs.existsSync(path.join(dir, 'PG_VERSION'))) {
      throw new Error(
        `No database under ${dir}: start the app once (npm start) or set DATABASE_URL.`,
      )
    }
    url = runningEmbeddedUrl(dir) ?? undefined
    if (!url) {
      started = await startAppPostgres(config)
      url = started.url
    }
  }
  const db = openDatabase(url, opts.poolSize ?? 2)
  return {
    ...db,
    async close() {
      await db.close()
      await started?.stop()
    },
  }
}
