// Backup benchmark: the embedded PostgreSQL archiving its WAL as `npm start` runs it, holding the
// demo data, then demo data plus generated members and ledger transfers (BENCH_BACKUP_TRANSFERS,
// [1000000]); a base backup of each (`npm run backup`'s work) and a restore to the end of the
// archive (`npm run restore -- --to latest`) into a new directory, timed, with the restored
// ledger's transfers counted against the original's.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  pruneBackups,
  restoreDataDirectory,
  takeBaseBackup,
} from '../../apps/server/src/db/backup.ts'
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded.ts'
import { migrate } from '../../apps/server/src/db/migrate.ts'
import { openDatabase } from '../../apps/server/src/db/pool.ts'
import { seedDemo } from '../../apps/server/src/db/seed.ts'
import { generateBenchEconomy } from './generate.ts'
import { sizeLabel, type BenchRow } from './table.ts'

const SIZES = (process.env.BENCH_BACKUP_TRANSFERS ?? '1000000').split(',').map(Number)
/** A base backup and a restore of a database with a million transfers each within 2 minutes. */
const BUDGET_S = 120

async function measure(transfersWanted: number): Promise<BenchRow[]> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-bench-backup-'))
  fs.chmodSync(tmp, 0o755)
  const pgDir = path.join(tmp, 'pg')
  const backupDir = path.join(tmp, 'backup')
  try {
    const { transfers, databaseBytes, backupS, afterWrites } = await writeAndBackUp(
      pgDir,
      backupDir,
      transfersWanted,
    )
    const t1 = performance.now()
    const restored = await restoreDataDirectory({
      backupDir,
      dataDir: path.join(tmp, 'restored'),
      target: 'latest',
    })
    const restoreS = (performance.now() - t1) / 1000
    if (restored.transfers !== transfers)
      throw new Error(`restored ${restored.transfers} transfers of ${transfers}`)
    const rows: BenchRow[] = []
    if (transfersWanted > 0)
      rows.push(await replayRow(backupDir, path.join(tmp, 'replayed'), afterWrites, transfers))
    const size = transfersWanted > 0 ? `${sizeLabel(transfers)} transfers` : 'demo data'
    const within = (s: number) =>
      transfersWanted > 0 ? { budget: `≤ ${BUDGET_S} s`, ok: s <= BUDGET_S } : {}
    console.info(`  ${size}: database ${(databaseBytes / 1e6).toFixed(0)} MB`)
    return [
      {
        group: 'backup',
        name: 'base backup (npm run backup)',
        size,
        value: backupS,
        unit: 's',
        ...within(backupS),
      },
      {
        group: 'backup',
        name: 'restore to latest (npm run restore)',
        size,
        value: restoreS,
        unit: 's',
        ...within(restoreS),
      },
      { group: 'backup', name: 'database size', size, value: databaseBytes / 1e6, unit: 'MB' },
      ...rows,
    ]
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

/**
 * The embedded PostgreSQL archiving its WAL into `backupDir`: filled, then backed up (timed) and
 * stopped. Answers the transfers and size written, the backup's seconds, and a moment after the
 * writes to replay to.
 */
async function writeAndBackUp(pgDir: string, backupDir: string, transfersWanted: number) {
  const server = await startEmbeddedPostgres(pgDir, () => {}, {
    archive: { dir: backupDir, timeoutS: 60 },
  })
  try {
    const written = await fillDatabase(server.url, pgDir, backupDir, transfersWanted)
    const t0 = performance.now()
    await takeBaseBackup({ url: server.url, dataDir: pgDir, backupDir })
    pruneBackups(backupDir, 7)
    const backupS = (performance.now() - t0) / 1000
    return { ...written, backupS }
  } finally {
    await server.stop()
  }
}

/**
 * The schema and the demo data, then (for a size above 0) a base backup and about
 * `transfersWanted` transfers; answers what is there and a moment after the writes that a
 * later commit has passed.
 */
export async function fillDatabase(
  url: string,
  pgDir: string,
  backupDir: string,
  transfersWanted: number,
): Promise<{ transfers: number; databaseBytes: number; afterWrites: Date }> {
  const database = openDatabase(url, 4)
  try {
    await migrate(database.pool)
    await seedDemo(database.pool)
    if (transfersWanted > 0) {
      // A base backup before the transfers: restoring from it replays their WAL.
      await takeBaseBackup({ url, dataDir: pgDir, backupDir })
      // About one funding transfer per member plus the large member's log.
      const users = Math.max(100, Math.round(transfersWanted / 10))
      await generateBenchEconomy(database.pool, {
        users,
        whaleLogRows: transfersWanted - users,
        positions: 0,
        prefix: `backup${transfersWanted}`,
        log: (m) => console.info(`  generate: ${m}`),
      })
    }
    const counted = await database.pool.query<{ n: string; bytes: string }>(
      `SELECT (SELECT count(*) FROM ledger_transfers)::text AS n,
                  pg_database_size(current_database())::text AS bytes`,
    )
    const transfers = Number(counted.rows[0]!.n)
    const databaseBytes = Number(counted.rows[0]!.bytes)
    const afterWrites = new Date(Date.now() + 1_000)
    await new Promise((r) => setTimeout(r, 2_000))
    // A commit after that moment, so the replay sees the moment pass.
    await database.pool.query('SELECT txid_current()')
    return { transfers, databaseBytes, afterWrites }
  } finally {
    await database.close()
  }
}

/** From the base backup taken before the transfers, to a moment after them: timed and counted. */
async function replayRow(
  backupDir: string,
  dataDir: string,
  afterWrites: Date,
  transfers: number,
): Promise<BenchRow> {
  const t2 = performance.now()
  const replayed = await restoreDataDirectory({ backupDir, dataDir, target: afterWrites })
  const replayS = (performance.now() - t2) / 1000
  if (replayed.transfers !== transfers)
    throw new Error(`replayed ${replayed.transfers} transfers of ${transfers}`)
  return {
    group: 'backup',
    name: 'restore replaying the WAL of every transfer',
    size: `${sizeLabel(transfers)} transfers`,
    value: replayS,
    unit: 's',
    budget: `≤ ${BUDGET_S * 5} s`,
    ok: replayS <= BUDGET_S * 5,
  }
}

export async function benchBackup(): Promise<BenchRow[]> {
  const rows = await measure(0)
  for (const size of SIZES) rows.push(...(await measure(size)))
  return rows
}
