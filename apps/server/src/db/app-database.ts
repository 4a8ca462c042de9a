import fs from 'node:fs'
import path from 'node:path'
import type { Config } from '../config.ts'
import { listBaseBackups, pruneBackups, takeBaseBackup } from './backup.ts'
import { runningEmbeddedUrl, startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.ts'
import { openDatabase, type Database } from './pool.ts'

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
      const backup = await takeBaseBackup({ url: db.url, dataDir, backupDir: config.backup.dir })
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
