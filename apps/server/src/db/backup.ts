// Backups of the embedded PostgreSQL, with PostgreSQL's own means only (its package ships
// `postgres`, `initdb` and `pg_ctl`): the server archives every WAL segment to BACKUP_DIR/wal
// (embedded.ts), a base backup copies the data directory between pg_backup_start and
// pg_backup_stop into BACKUP_DIR/base/<id>, and a restore copies a base backup into a new data
// directory and lets the server replay the archive up to a moment (or to its end).
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import {
  backupDeploymentFiles,
  FILES_DIR,
  planFilesRestore,
  restoreFiles,
  type FilesManifest,
} from './deployment-files.ts'
import {
  archiveCommand,
  postgresOsUser,
  restoreCommand,
  runningEmbeddedUrl,
  startEmbeddedPostgres,
  walArchiveDir,
} from './embedded.ts'

export interface BaseBackup {
  id: string
  /** The folder holding the copy, under BACKUP_DIR/base. */
  dir: string
  startedAt: string
  /** When pg_backup_stop returned: the earliest moment this backup can be restored to. */
  finishedAt: string
  /** The first WAL segment a restore of this backup needs. */
  startWal: string
  startLsn: string
  stopLsn: string
  bytes: number
  /** The deployment's files it carries beside the database (none for a backup of the database alone). */
  files?: FilesManifest
}

const baseDir = (backupDir: string) => path.join(backupDir, 'base')
const META = 'backup.json'

/** The finished base backups under `backupDir`, oldest first. */
export function listBaseBackups(backupDir: string): BaseBackup[] {
  const dir = baseDir(backupDir)
  if (!fs.existsSync(dir)) return []
  const found: BaseBackup[] = []
  for (const id of fs.readdirSync(dir)) {
    const meta = path.join(dir, id, META)
    if (!fs.existsSync(meta)) continue // unfinished (a `.partial` folder) or foreign
    const b = JSON.parse(fs.readFileSync(meta, 'utf8')) as Omit<BaseBackup, 'dir'>
    found.push({ ...b, dir: path.join(dir, id) })
  }
  return found.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt))
}

/**
 * The base backup to restore `target` from: the newest one finished at or before it (a
 * restore replays forward only), or the newest of all for `latest`.
 */
export function chooseBaseBackup(
  backups: readonly BaseBackup[],
  target: Date | 'latest',
): BaseBackup {
  if (!backups.length) throw new Error('There is no base backup yet: run `npm run backup` first.')
  if (target === 'latest') return backups.at(-1)!
  const before = backups.filter((b) => Date.parse(b.finishedAt) <= target.getTime())
  if (!before.length)
    throw new Error(
      `No base backup finished by ${target.toISOString()}; the oldest finished at ${backups[0]!.finishedAt}.`,
    )
  return before.at(-1)!
}

/** An archived file's WAL position part (timeline + segment), for ordering; null when none. */
const walPosition = (file: string): string | null => /^([0-9A-F]{24})(\.|$)/.exec(file)?.[1] ?? null

/**
 * What retention removes: base backups finished more than `keepDays` before `now` (the newest
 * always stays), then every archived segment older than the oldest kept backup's first one.
 * Timeline history files stay.
 */
export function retentionPlan(
  backups: readonly BaseBackup[],
  walFiles: readonly string[],
  keepDays: number,
  now: Date,
): { backups: BaseBackup[]; walFiles: string[] } {
  if (!backups.length) return { backups: [], walFiles: [] }
  const cutoff = now.getTime() - keepDays * 86_400_000
  const newest = backups.at(-1)!
  const drop = backups.filter((b) => b !== newest && Date.parse(b.finishedAt) < cutoff)
  const oldestKept = backups.find((b) => !drop.includes(b))!
  const walDrop = walFiles.filter((f) => {
    const pos = walPosition(f)
    return pos !== null && pos < oldestKept.startWal
  })
  return { backups: drop, walFiles: walDrop }
}

/** Applies the retention plan; what went. */
export function pruneBackups(
  backupDir: string,
  keepDays: number,
  now = new Date(),
): { backups: number; walFiles: number } {
  const walDir = walArchiveDir(backupDir)
  const walFiles = fs.existsSync(walDir) ? fs.readdirSync(walDir) : []
  const plan = retentionPlan(listBaseBackups(backupDir), walFiles, keepDays, now)
  for (const b of plan.backups) fs.rmSync(b.dir, { recursive: true, force: true })
  // A base backup cut short (the server stopped meanwhile) left its unfinished copy.
  const bases = baseDir(backupDir)
  if (fs.existsSync(bases))
    for (const name of fs.readdirSync(bases))
      if (name.endsWith('.partial'))
        fs.rmSync(path.join(bases, name), { recursive: true, force: true })
  for (const f of plan.walFiles) fs.rmSync(path.join(walDir, f), { force: true })
  return { backups: plan.backups.length, walFiles: plan.walFiles.length }
}

/** Folders whose contents a base backup leaves out (PostgreSQL makes them anew). */
const EMPTY_IN_BACKUP = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
])
/** Top-level files a base backup leaves out. */
const LEFT_OUT = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
  'recovery.signal',
  'standby.signal',
])

/**
 * Copies a data directory that PostgreSQL is writing: files that vanish meanwhile are skipped
 * (the WAL replay makes the copy consistent). Bytes copied.
 */
function copyDataDirectory(from: string, to: string, top = true): number {
  fs.mkdirSync(to, { recursive: true, mode: 0o700 })
  let bytes = 0
  let entries: fs.Dirent[]
  try {
    entries = fs.readdirSync(from, { withFileTypes: true })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw e
  }
  for (const entry of entries) {
    const name = entry.name
    if (top && LEFT_OUT.has(name)) continue
    if (name.startsWith('pgsql_tmp') || name === 'pg_internal.init') continue
    const source = path.join(from, name)
    const target = path.join(to, name)
    if (entry.isDirectory()) {
      if (top && EMPTY_IN_BACKUP.has(name)) {
        fs.mkdirSync(target, { mode: 0o700 })
        if (name === 'pg_wal') fs.mkdirSync(path.join(target, 'archive_status'), { mode: 0o700 })
        continue
      }
      bytes += copyDataDirectory(source, target, false)
    } else if (entry.isFile()) {
      try {
        fs.copyFileSync(source, target)
        bytes += fs.statSync(target).size
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
      }
    }
  }
  return bytes
}

const backupId = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')

/**
 * A base backup of the running server at `url`, whose data directory is `dataDir`: the copy is
 * taken between pg_backup_start and pg_backup_stop in one session, and stop waits until the WAL
 * it needs is archived (at most `stopTimeoutS`).
 */
export async function takeBaseBackup(opts: {
  url: string
  dataDir: string
  backupDir: string
  stopTimeoutS?: number
  /** The DATA_DIR whose keys (sealed with `backupKey`), uploads and chain state it carries too. */
  files?: { dataDir: string; backupKey: Buffer | undefined }
}): Promise<BaseBackup> {
  const client = new pg.Client({ connectionString: opts.url })
  client.on('error', () => {})
  await client.connect()
  try {
    const settings = await client.query<{ mode: string; command: string }>(
      `SELECT current_setting('archive_mode') AS mode, current_setting('archive_command') AS command`,
    )
    const { mode, command } = settings.rows[0]!
    if (mode !== 'on' || command !== archiveCommand(opts.backupDir))
      throw new Error(
        `The running database does not archive its WAL to ${walArchiveDir(opts.backupDir)} ` +
          `(archive_mode ${mode}): restart the app (npm start) with this BACKUP_DIR first.`,
      )
    const archiver = await client.query<{ failing: boolean; wal: string | null }>(
      `SELECT coalesce(last_failed_time > coalesce(last_archived_time, '-infinity'), false) AS failing,
              last_failed_wal AS wal
         FROM pg_stat_archiver`,
    )
    if (archiver.rows[0]?.failing)
      throw new Error(
        `Archiving fails (last at ${archiver.rows[0].wal}): see the PostgreSQL log; is ${walArchiveDir(opts.backupDir)} writable?`,
      )

    const startedAt = new Date()
    const id = backupId(startedAt)
    const partial = path.join(baseDir(opts.backupDir), `${id}.partial`)
    const final = path.join(baseDir(opts.backupDir), id)
    if (fs.existsSync(final)) throw new Error(`A base backup ${id} exists already.`)
    fs.rmSync(partial, { recursive: true, force: true })
    const start = await client.query<{ lsn: string; wal: string }>(
      `SELECT lsn::text, pg_walfile_name(lsn) AS wal FROM pg_backup_start($1, true) AS lsn`,
      [`hope ${id}`],
    )
    let bytes: number
    try {
      bytes = copyDataDirectory(opts.dataDir, partial)
    } catch (e) {
      await client.query(`SELECT pg_backup_stop(false)`).catch(() => {})
      throw e
    }
    await client.query(`SET statement_timeout = ${Math.round((opts.stopTimeoutS ?? 120) * 1000)}`)
    const stop = await client
      .query<{ lsn: string; labelfile: string; spcmapfile: string | null; at: Date }>(
        `SELECT lsn::text, labelfile, spcmapfile, clock_timestamp() AS at FROM pg_backup_stop(true)`,
      )
      .catch((e: Error) => {
        throw new Error(
          `The WAL this backup needs was not archived in time (${e.message}): see the PostgreSQL log.`,
        )
      })
    const s = stop.rows[0]!
    fs.writeFileSync(path.join(partial, 'backup_label'), s.labelfile)
    if (s.spcmapfile) fs.writeFileSync(path.join(partial, 'tablespace_map'), s.spcmapfile)
    const files = opts.files
      ? await backupDeploymentFiles({
          dataDir: opts.files.dataDir,
          into: partial,
          backupKey: opts.files.backupKey,
        })
      : undefined
    const backup: BaseBackup = {
      id,
      dir: final,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date(s.at).toISOString(),
      startWal: start.rows[0]!.wal,
      startLsn: start.rows[0]!.lsn,
      stopLsn: s.lsn,
      bytes,
      ...(files ? { files } : {}),
    }
    const { dir: _dir, ...meta } = backup
    fs.writeFileSync(path.join(partial, META), `${JSON.stringify(meta, null, 2)}\n`)
    fs.renameSync(partial, final)
    return backup
  } finally {
    await client.end().catch(() => {})
  }
}

const RESTORE_BEGIN = '# hope restore: begin'
const RESTORE_END = '# hope restore: end'
const confString = (v: string) => `'${v.replace(/'/g, "''")}'`

/** Gives the tree to the server's OS user (as root) and closes it to others. */
function handToServer(dir: string): void {
  fs.chmodSync(dir, 0o700)
  const owner = postgresOsUser()
  if (!owner) return
  const walk = (p: string) => {
    fs.chownSync(p, owner.uid, owner.gid)
    if (fs.statSync(p).isDirectory()) for (const n of fs.readdirSync(p)) walk(path.join(p, n))
  }
  walk(dir)
}

export interface RestoreResult {
  backup: BaseBackup
  /** The newest ledger transfer in the restored database, if any. */
  lastTransferAt: string | null
  transfers: number
  /** Where the directory that was there before went (`replace`), if there was one. */
  movedAside: string | null
}

/**
 * When the archive ends at the latest: the newest archived file's time. Each file is written
 * after everything in it happened, so a moment past this one cannot be reached by replaying the
 * archive; a moment before it may still lie past the last commit (the server then says so).
 */
export function archiveEndsAt(backupDir: string): Date | null {
  const dir = walArchiveDir(backupDir)
  if (!fs.existsSync(dir)) return null
  let newest = 0
  for (const name of fs.readdirSync(dir))
    if (name.endsWith('.gz')) newest = Math.max(newest, fs.statSync(path.join(dir, name)).mtimeMs)
  return newest ? new Date(newest) : null
}

/**
 * The base backup a restore to `target` starts from, once the archive can reach `target`:
 * refused before the oldest base backup finished, and past the archive's end.
 */
export function planRestore(backupDir: string, target: Date | 'latest'): BaseBackup {
  const backup = chooseBaseBackup(listBaseBackups(backupDir), target)
  if (target === 'latest') return backup
  const end = archiveEndsAt(backupDir)
  if (!end || end.getTime() < target.getTime())
    throw new Error(
      `The archive ends before ${target.toISOString()} (its newest file was written at ` +
        `${end?.toISOString() ?? '-'}): restore to an earlier moment, or with --to latest.`,
    )
  return backup
}

/** Where a restore may write, by what `dir` holds now. */
export type RestoreTarget = 'absent' | 'empty' | 'data-directory'

/**
 * What `dir` is, refusing what a restore must not move: a server running on it, a DATA_DIR (its
 * data directory is the `pg` folder inside, and beside it lie the backups and keys), anything
 * else that is not a PostgreSQL data directory, and a folder holding `backupDir`.
 */
export function checkRestoreTarget(dir: string, backupDir: string): RestoreTarget {
  if (!fs.existsSync(dir)) return 'absent'
  if (!fs.statSync(dir).isDirectory()) throw new Error(`${dir} is a file, not a folder.`)
  const names = fs.readdirSync(dir)
  if (!names.length) return 'empty'
  if (runningEmbeddedUrl(dir)) throw new Error(`A server is running on ${dir}: stop the app first.`)
  if (names.includes('pg') && !names.includes('PG_VERSION'))
    throw new Error(
      `${dir} looks like a DATA_DIR, not a data directory: pass --data-dir ${path.join(dir, 'pg')}.`,
    )
  const inside = path.relative(dir, path.resolve(backupDir))
  if (!inside.startsWith('..') && !path.isAbsolute(inside))
    throw new Error(`${dir} holds BACKUP_DIR (${backupDir}): restore into another folder.`)
  if (names.includes('PG_VERSION')) return 'data-directory'
  throw new Error(
    `${dir} is not a PostgreSQL data directory (no PG_VERSION) and not empty: restore into a new folder.`,
  )
}

/** The moment as a file name part: 20261128T093000123Z. */
const stamp = (at: Date) => at.toISOString().replace(/[-:.]/g, '')

/**
 * Restores `dataDir` to `target` without touching it until the restore has succeeded: the
 * target is checked against the backups and the archive, and the folder against what it holds
 * (`replace` allows an existing data directory); the base backup is copied into a new sibling
 * folder and replayed there; only then is an existing `dataDir` moved aside and the new one
 * renamed into its place. A refused or failed restore leaves `dataDir` as it was and no folder
 * of its own behind.
 */
export async function restoreDataDirectory(opts: {
  backupDir: string
  dataDir: string
  target: Date | 'latest'
  replace?: boolean
  log?: (msg: string) => void
}): Promise<RestoreResult> {
  const log = opts.log ?? (() => {})
  const dataDir = path.resolve(opts.dataDir)
  const backup = planRestore(opts.backupDir, opts.target)
  const before = checkRestoreTarget(dataDir, opts.backupDir)
  if (before === 'data-directory' && !opts.replace)
    throw new Error(
      `${dataDir} is not empty: restore into a new folder, or add --replace to move it aside.`,
    )

  const work = `${dataDir}.restoring-${stamp(new Date())}`
  fs.mkdirSync(path.dirname(dataDir), { recursive: true })
  let result: Omit<RestoreResult, 'movedAside'>
  try {
    result = await replayInto(work, backup, opts.backupDir, opts.target, log)
  } catch (e) {
    fs.rmSync(work, { recursive: true, force: true })
    throw e
  }

  // The app may have been started on it meanwhile.
  let aside: string | null = null
  try {
    if (checkRestoreTarget(dataDir, opts.backupDir) === 'data-directory') {
      aside = `${dataDir}.before-restore-${stamp(new Date())}`
      fs.renameSync(dataDir, aside)
      log(`moved the existing ${dataDir} to ${aside}`)
    } else fs.rmSync(dataDir, { recursive: true, force: true }) // absent or empty
    fs.renameSync(work, dataDir)
  } catch (e) {
    if (aside && !fs.existsSync(dataDir)) fs.renameSync(aside, dataDir)
    fs.rmSync(work, { recursive: true, force: true })
    throw e
  }
  return { ...result, movedAside: aside }
}

export interface DeploymentRestoreResult extends RestoreResult {
  /** What was put back beside the database, one line each. */
  files: string[]
  /** What the backup could not bring back. */
  missing: string[]
}

/**
 * Restores a whole DATA_DIR (`dataDir`, the variable's meaning) to `target`: its database
 * (DATA_DIR/pg, as restoreDataDirectory), then the keys of the base backup it came from (opened
 * with `backupKey`), every backup's uploads and the newest local chain state. Everything that
 * can refuse is checked before anything moves: the time, the folder (a PostgreSQL data
 * directory given instead of its DATA_DIR, a running server or chain), the key.
 */
export async function restoreDeployment(opts: {
  backupDir: string
  dataDir: string
  target: Date | 'latest'
  backupKey: Buffer | undefined
  replace?: boolean
  log?: (msg: string) => void
}): Promise<DeploymentRestoreResult> {
  const dataDir = path.resolve(opts.dataDir)
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION')))
    throw new Error(
      `${dataDir} is a PostgreSQL data directory: --data-dir takes the DATA_DIR that holds it as pg (${path.dirname(dataDir)}).`,
    )
  const backup = planRestore(opts.backupDir, opts.target)
  const plan = planFilesRestore({
    dataDir,
    chosen: backup.dir,
    all: listBaseBackups(opts.backupDir).map((b) => b.dir),
    backupKey: opts.backupKey,
    replace: opts.replace ?? false,
  })
  const pgDir = path.join(dataDir, 'pg')
  const before = checkRestoreTarget(pgDir, opts.backupDir)
  if (before === 'data-directory' && !opts.replace)
    throw new Error(
      `${pgDir} holds a database: restore into a new DATA_DIR, or add --replace to move it aside.`,
    )
  const result = await restoreDataDirectory({ ...opts, dataDir: pgDir })
  const files = restoreFiles(dataDir, plan, stamp(new Date()))
  return { ...result, files, missing: plan.missing }
}

/**
 * Builds `dir` (new) from `backup`, then runs the server on it until it has replayed the archive
 * to `target` (or to its end for `latest`) and promoted itself; stops it, with the restore
 * settings removed, leaving a data directory the app serves.
 */
async function replayInto(
  dir: string,
  backup: BaseBackup,
  backupDir: string,
  target: Date | 'latest',
  log: (msg: string) => void,
): Promise<Omit<RestoreResult, 'movedAside'>> {
  log(`copying base backup ${backup.id} (finished ${backup.finishedAt})`)
  fs.cpSync(backup.dir, dir, {
    recursive: true,
    filter: (source) =>
      source !== path.join(backup.dir, META) && source !== path.join(backup.dir, FILES_DIR),
  })
  fs.writeFileSync(path.join(dir, 'recovery.signal'), '')
  const autoConf = path.join(dir, 'postgresql.auto.conf')
  const lines = [
    RESTORE_BEGIN,
    `restore_command = ${confString(restoreCommand(backupDir))}`,
    ...(target === 'latest'
      ? []
      : // The server's own timestamp form, with a numeric zone (it refuses abbreviations).
        [
          `recovery_target_time = ${confString(target.toISOString().replace('T', ' ').replace('Z', '+00'))}`,
        ]),
    `recovery_target_action = 'promote'`,
    RESTORE_END,
  ]
  fs.appendFileSync(autoConf, `\n${lines.join('\n')}\n`)
  handToServer(dir)

  log(`replaying the archived WAL to ${target === 'latest' ? 'its end' : target.toISOString()}`)
  let server
  try {
    server = await startEmbeddedPostgres(dir, log)
  } catch (e) {
    const reached = /recovery ended before configured recovery target was reached/.test(
      String((e as Error).message),
    )
    throw new Error(
      reached
        ? `The archive ends before ${target === 'latest' ? 'its end' : target.toISOString()} ` +
            `(no change was archived after it): restore to an earlier moment, or with --to latest.`
        : (e as Error).message,
      { cause: e },
    )
  }
  let result: Omit<RestoreResult, 'movedAside'>
  try {
    const client = new pg.Client({ connectionString: server.url })
    await client.connect()
    try {
      const recovering = await client.query<{ r: boolean }>(`SELECT pg_is_in_recovery() AS r`)
      if (recovering.rows[0]!.r) throw new Error('The restored server is still recovering.')
      const ledger = await client.query<{ n: string; last: Date | null }>(
        `SELECT count(*)::text AS n, max(created_at) AS last FROM ledger_transfers`,
      )
      result = {
        backup,
        transfers: Number(ledger.rows[0]!.n),
        lastTransferAt: ledger.rows[0]!.last ? new Date(ledger.rows[0]!.last).toISOString() : null,
      }
    } finally {
      await client.end()
    }
  } finally {
    await server.stop()
  }
  // The restore settings have done their work: the app starts this directory as it is.
  const conf = fs.readFileSync(autoConf, 'utf8')
  const begin = conf.indexOf(RESTORE_BEGIN)
  const end = conf.indexOf(RESTORE_END)
  if (begin >= 0 && end > begin)
    fs.writeFileSync(
      autoConf,
      conf.slice(0, begin).trimEnd() + '\n' + conf.slice(end + RESTORE_END.length + 1),
    )
  fs.rmSync(path.join(dir, 'recovery.signal'), { force: true })
  return result
}
