// `npm run backup`: a base backup of the app's embedded database (running or not) into
// BACKUP_DIR/base, taken with PostgreSQL's own backup functions while it serves, with the rest
// of DATA_DIR a restore needs: the operator and seal keys (encrypted with BACKUP_KEY), the
// uploads and the local chain's state; then the retention (BACKUP_KEEP_DAYS) drops old base
// backups and the WAL only they needed.
// An external DATABASE_URL is backed up with its own tools (docs/deployment.md).
import fs from 'node:fs'
import path from 'node:path'
import { loadConfig } from '../src/config.ts'
import { startAppPostgres } from '../src/db/app-database.ts'
import { pruneBackups, takeBaseBackup } from '../src/db/backup.ts'
import { runningEmbeddedUrl, walArchiveDir, type EmbeddedDatabase } from '../src/db/embedded.ts'

const config = loadConfig()
if (config.databaseUrl) {
  console.error(
    'DATABASE_URL names an external PostgreSQL: back it up with its own tools (pgBackRest, or ' +
      "the provider's point-in-time recovery); see docs/deployment.md.",
  )
  process.exit(2)
}
const dataDir = path.join(config.dataDir, 'pg')
if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
  console.error(`No database under ${dataDir}: start the app once (npm start).`)
  process.exit(2)
}

let started: EmbeddedDatabase | null = null
try {
  let url = runningEmbeddedUrl(dataDir)
  if (!url) {
    started = await startAppPostgres(config)
    url = started.url
  }
  const t0 = performance.now()
  const backup = await takeBaseBackup({
    url,
    dataDir,
    backupDir: config.backup.dir,
    files: { dataDir: config.dataDir, backupKey: config.backup.key },
  })
  const seconds = ((performance.now() - t0) / 1000).toFixed(1)
  console.info(
    `base backup ${backup.id}: ${(backup.bytes / 1e6).toFixed(1)} MB in ${seconds} s, ` +
      `restorable from ${backup.finishedAt}, in ${backup.dir}`,
  )
  const files = backup.files!
  console.info(
    `with ${files.keys === null ? 'no keys (set BACKUP_KEY to carry them)' : `the keys ${files.keys.join(', ') || '(none yet)'} encrypted with BACKUP_KEY`}, ` +
      `${files.uploads} uploaded file(s), ${files.chainState ? 'the local chain state' : 'no local chain state'}`,
  )
  const pruned = pruneBackups(config.backup.dir, config.backup.keepDays)
  console.info(
    `WAL archive: ${walArchiveDir(config.backup.dir)}; kept ${config.backup.keepDays} days, ` +
      `removed ${pruned.backups} base backup(s) and ${pruned.walFiles} WAL file(s)`,
  )
} catch (e) {
  console.error((e as Error).message)
  process.exitCode = 1
} finally {
  await started?.stop()
}
process.exit(process.exitCode ?? 0)
