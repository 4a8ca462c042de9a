// Backups and point-in-time restore of the embedded database, as an operator runs them:
// credit, `npm run backup`, credit, stop; `npm run restore` to the end of the archive and to a
// moment between the credits gives exactly those balances with a clean ledger. Then the same
// after a power loss (kill -9 of the app, PostgreSQL and the chain together), restoring from
// the archive alone: what is lost is at most the last archive_timeout.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded.ts'
import { createOperators, credit, registerUser, type Operators, type User } from './support/api.ts'
import { ledgerVerify, userBalances } from './support/checks.ts'
import { HopeServer, runScript, sleep, waitFor } from './support/server.ts'
import { DEMO_ROOT } from '../../apps/server/src/db/seed.ts'

/** archive_timeout for this app: short, so the power-loss case needs no long wait. */
const ARCHIVE_TIMEOUT_S = 3
const env = { BACKUP_ARCHIVE_TIMEOUT_S: String(ARCHIVE_TIMEOUT_S) }

let server: HopeServer
let ops: Operators
let user: User
const report: string[] = []
const scratch: HopeServer[] = []

beforeAll(async () => {
  server = await HopeServer.create()
  await server.start(env)
  ops = await createOperators(server)
  user = await registerUser(server, DEMO_ROOT.userName)
})

afterAll(async () => {
  await server?.dispose()
  for (const s of scratch) await s.dispose()
  if (report.length) console.info(report.join('\n'))
})

const backupDir = () => path.join(server.dataDir, 'backup')

/** `npm run restore` into a new DATA_DIR, from this app's BACKUP_DIR. */
async function restore(to: string): Promise<{ target: HopeServer; ms: number; out: string }> {
  const target = await HopeServer.create()
  scratch.push(target)
  const started = Date.now()
  const r = await runScript(
    'restore.ts',
    server.dataDir,
    ['--to', to, '--data-dir', target.dataDir],
    env,
  )
  if (r.code !== 0)
    throw new Error(`restore --to ${to} failed (${r.code}):\n${r.stderr}${r.stdout}`)
  return { target, ms: Date.now() - started, out: r.stdout }
}

/** The user's USDT balance in a restored data directory, and `ledger:verify` on it. */
async function restoredBalance(target: HopeServer): Promise<bigint> {
  const pg = await startEmbeddedPostgres(path.join(target.dataDir, 'pg'))
  try {
    const pool = new (await import('pg')).default.Pool({ connectionString: pg.url, max: 2 })
    // A session still closing when the server stops hears its shutdown: nothing to report.
    pool.on('error', () => {})
    try {
      const balances = await userBalances(pool, [user.userName])
      // Commands on that DATA_DIR use the server running there.
      expect(await ledgerVerify(target)).toMatch(/^ledger OK/)
      return balances.get(user.userName)!.balance
    } finally {
      await pool.end()
    }
  } finally {
    await pg.stop()
  }
}

const USDT = (n: number) => BigInt(n) * 1_000_000n

test('a clean stop, restored to the end and to a moment between two credits', async () => {
  await credit(server, ops, user.userName, '100')
  const backup = await runScript('backup.ts', server.dataDir, [], env)
  expect(backup.code, backup.stderr).toBe(0)
  expect(backup.stdout).toMatch(/^base backup \d{8}T\d{6}Z: [\d.]+ MB in [\d.]+ s/)
  report.push(`[backup] ${backup.stdout.trim().split('\n')[0]}`)
  expect(fs.readdirSync(path.join(backupDir(), 'base'))).toHaveLength(1)

  await sleep(1_000)
  const between = new Date()
  await sleep(1_000)
  await credit(server, ops, user.userName, '250')
  const stopped = await server.stop()
  expect(stopped.code).toBe(0)

  const latest = await restore('latest')
  report.push(`[restore] latest in ${latest.ms} ms: ${latest.out.trim().split('\n').at(-2)}`)
  expect(await restoredBalance(latest.target)).toBe(USDT(350))

  const earlier = await restore(between.toISOString())
  report.push(`[restore] to ${between.toISOString()} in ${earlier.ms} ms`)
  expect(await restoredBalance(earlier.target)).toBe(USDT(100))

  // A moment before the first base backup finished cannot be restored: said, nothing made.
  const before = await runScript(
    'restore.ts',
    server.dataDir,
    ['--to', '2020-01-01T00:00:00Z', '--data-dir', path.join(server.dataDir, 'never')],
    env,
  )
  expect(before.code).toBe(1)
  expect(before.stderr).toMatch(/No base backup finished by 2020-01-01T00:00:00.000Z/)
  expect(fs.existsSync(path.join(server.dataDir, 'never'))).toBe(false)
})

test('after a power loss, the archive alone loses at most the last archive_timeout', async () => {
  await server.start(env)
  await credit(server, ops, user.userName, '40')
  // Wait until the segment holding that credit is archived: at most archive_timeout.
  const pool = server.openPool()
  try {
    const { rows } = await pool.query<{ wal: string }>(
      `SELECT pg_walfile_name(pg_current_wal_lsn()) AS wal`,
    )
    const wal = rows[0]!.wal
    const waited = Date.now()
    await waitFor(
      `WAL ${wal} to be archived`,
      async () => {
        const r = await pool.query<{ last: string | null }>(
          `SELECT last_archived_wal AS last FROM pg_stat_archiver`,
        )
        return (r.rows[0]?.last ?? '').slice(0, 24) >= wal
      },
      (ARCHIVE_TIMEOUT_S + 20) * 1000,
      100,
    ).catch((e: Error) => {
      const archived = fs.readdirSync(path.join(backupDir(), 'wal')).join(' ')
      throw new Error(`${e.message}; archived: ${archived}\n${server.output()}`)
    })
    report.push(`[archive] segment with the credit archived ${Date.now() - waited} ms after it`)
  } finally {
    await pool.end()
  }
  // A last credit just before the power goes: it may or may not reach the archive.
  await credit(server, ops, user.userName, '7')
  await server.kill('SIGKILL', { group: true })

  const archived = fs.readdirSync(path.join(backupDir(), 'wal'))
  const archivedBytes = archived.reduce(
    (n, f) => n + fs.statSync(path.join(backupDir(), 'wal', f)).size,
    0,
  )
  report.push(`[archive] ${archived.length} files, ${(archivedBytes / 1e6).toFixed(2)} MB`)
  const restored = await restore('latest')
  const balance = await restoredBalance(restored.target)
  expect([USDT(390), USDT(397)]).toContain(balance)
  report.push(
    `[power loss] restored from the archive in ${restored.ms} ms: ` +
      (balance === USDT(397)
        ? 'nothing lost'
        : 'lost the last credit (7 USDT, made less than archive_timeout before the loss)'),
  )
})
