import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  chooseBaseBackup,
  restoreDataDirectory,
  retentionPlan,
  takeBaseBackup,
  type BaseBackup,
} from './backup.ts'
import { startEmbeddedPostgres } from './embedded.ts'

const backup = (id: string, finishedAt: string, startWal: string): BaseBackup => ({
  id,
  dir: `/b/${id}`,
  startedAt: finishedAt,
  finishedAt,
  startWal,
  startLsn: '0/0',
  stopLsn: '0/0',
  bytes: 1,
})
const monday = backup('mon', '2026-11-23T02:00:00.000Z', '000000010000000000000010')
const wednesday = backup('wed', '2026-11-25T02:00:00.000Z', '000000010000000000000020')
const friday = backup('fri', '2026-11-27T02:00:00.000Z', '000000020000000000000030')
const all = [monday, wednesday, friday]

describe('chooseBaseBackup', () => {
  test('latest is the newest base backup', () => {
    expect(chooseBaseBackup(all, 'latest')).toBe(friday)
  })

  test('a moment restores from the newest backup finished by then, its own moment included', () => {
    expect(chooseBaseBackup(all, new Date('2026-11-26T12:00:00Z'))).toBe(wednesday)
    expect(chooseBaseBackup(all, new Date(wednesday.finishedAt))).toBe(wednesday)
    expect(chooseBaseBackup(all, new Date('2026-12-01T00:00:00Z'))).toBe(friday)
  })

  test('before the first backup, or with none, the answer says why', () => {
    expect(() => chooseBaseBackup(all, new Date('2026-11-22T00:00:00Z'))).toThrow(
      'No base backup finished by 2026-11-22T00:00:00.000Z; the oldest finished at 2026-11-23T02:00:00.000Z.',
    )
    expect(() => chooseBaseBackup([], 'latest')).toThrow(/npm run backup/)
  })
})

describe('retentionPlan', () => {
  const wal = [
    '00000001000000000000000F.gz',
    '000000010000000000000010.gz',
    '000000010000000000000010.00000028.backup.gz',
    '00000001000000000000001F.gz',
    '000000010000000000000020.gz',
    '00000002.history.gz',
    '000000020000000000000030.gz',
  ]

  test('drops backups older than the kept days and the WAL only they needed', () => {
    const plan = retentionPlan(all, wal, 3, new Date('2026-11-27T12:00:00Z'))
    expect(plan.backups).toEqual([monday])
    expect(plan.walFiles).toEqual([
      '00000001000000000000000F.gz',
      '000000010000000000000010.gz',
      '000000010000000000000010.00000028.backup.gz',
      '00000001000000000000001F.gz',
    ])
  })

  test('the newest backup always stays, and timeline history files stay', () => {
    const plan = retentionPlan(all, wal, 1, new Date('2027-06-01T00:00:00Z'))
    expect(plan.backups).toEqual([monday, wednesday])
    expect(plan.walFiles).not.toContain('00000002.history.gz')
    expect(plan.walFiles).not.toContain('000000020000000000000030.gz')
  })

  test('without a base backup nothing goes', () => {
    expect(retentionPlan([], wal, 1, new Date())).toEqual({ backups: [], walFiles: [] })
  })
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

// A DATA_DIR as the app lays it out (pg/, backup/, a key file beside them), with one base backup
// and the archive of two transfers, the second after it; the database stopped.
describe('restoreDataDirectory misuse', () => {
  let dataDir: string
  let live: string
  let backupDir: string
  let afterLastTransfer: Date
  const archive = () => ({ dir: backupDir, timeoutS: 60 })

  const insertTransfer = async (url: string) => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query(`INSERT INTO ledger_transfers DEFAULT VALUES`)
    } finally {
      await client.end()
    }
  }
  /** What the app would read from the live database: its transfers. */
  const liveTransfers = async () => {
    const db = await startEmbeddedPostgres(live)
    try {
      const client = new pg.Client({ connectionString: db.url })
      await client.connect()
      try {
        const { rows } = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ledger_transfers`,
        )
        return rows[0]!.n
      } finally {
        await client.end()
      }
    } finally {
      await db.stop()
    }
  }
  const listing = (dir: string) => fs.readdirSync(dir).sort()

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-restore-'))
    fs.chmodSync(dataDir, 0o755)
    live = path.join(dataDir, 'pg')
    backupDir = path.join(dataDir, 'backup')
    fs.writeFileSync(path.join(dataDir, 'signer.key'), 'key')
    const db = await startEmbeddedPostgres(live, () => {}, { archive: archive() })
    try {
      const client = new pg.Client({ connectionString: db.url })
      await client.connect()
      try {
        await client.query(
          `CREATE TABLE ledger_transfers (id serial PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now())`,
        )
      } finally {
        await client.end()
      }
      await insertTransfer(db.url)
      await takeBaseBackup({ url: db.url, dataDir: live, backupDir })
      await insertTransfer(db.url)
      await sleep(1_000)
      afterLastTransfer = new Date()
      await sleep(1_000)
    } finally {
      await db.stop()
    }
  })
  afterAll(() => {
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  })

  test('a refused time with --replace leaves the live database in place', async () => {
    const before = listing(dataDir)
    await expect(
      restoreDataDirectory({
        backupDir,
        dataDir: live,
        target: new Date('2020-01-01T00:00:00Z'),
        replace: true,
      }),
    ).rejects.toThrow(/No base backup finished by 2020-01-01T00:00:00.000Z/)
    expect(listing(dataDir)).toEqual(before)
    expect(await liveTransfers()).toBe(2)
  })

  test('the DATA_DIR given instead of DATA_DIR/pg moves nothing', async () => {
    const before = listing(dataDir)
    const parent = listing(path.dirname(dataDir))
    await expect(
      restoreDataDirectory({ backupDir, dataDir, target: 'latest', replace: true }),
    ).rejects.toThrow(`pass --data-dir ${live}`)
    expect(listing(dataDir)).toEqual(before)
    expect(listing(path.dirname(dataDir))).toEqual(parent)
    expect(await liveTransfers()).toBe(2)
  })

  test('a folder that is not a data directory is refused, with or without --replace', async () => {
    const other = path.join(dataDir, 'notes')
    fs.mkdirSync(other)
    fs.writeFileSync(path.join(other, 'notes.txt'), 'keep')
    try {
      await expect(
        restoreDataDirectory({ backupDir, dataDir: other, target: 'latest', replace: true }),
      ).rejects.toThrow(/is not a PostgreSQL data directory \(no PG_VERSION\)/)
      expect(listing(other)).toEqual(['notes.txt'])
    } finally {
      fs.rmSync(other, { recursive: true })
    }
  })

  test('a time past the archive end leaves no folder behind', async () => {
    const before = listing(dataDir)
    const fresh = path.join(dataDir, 'fresh')
    // Past the newest archived file: refused before anything is copied.
    await expect(
      restoreDataDirectory({
        backupDir,
        dataDir: fresh,
        target: new Date(Date.now() + 3_600_000),
      }),
    ).rejects.toThrow(/The archive ends before/)
    // Within the archive's files but past its last change: the replay, in its own folder, fails.
    await expect(
      restoreDataDirectory({ backupDir, dataDir: live, target: afterLastTransfer, replace: true }),
    ).rejects.toThrow(/The archive ends before/)
    expect(listing(dataDir)).toEqual(before)
    expect(await liveTransfers()).toBe(2)
  })

  test('a running server is refused', async () => {
    const db = await startEmbeddedPostgres(live)
    try {
      await expect(
        restoreDataDirectory({ backupDir, dataDir: live, target: 'latest', replace: true }),
      ).rejects.toThrow(/A server is running on/)
    } finally {
      await db.stop()
    }
  })

  test('a restore that succeeds swaps the new folder in and keeps the old one aside', async () => {
    const restored = await restoreDataDirectory({
      backupDir,
      dataDir: live,
      target: 'latest',
      replace: true,
    })
    expect(restored.transfers).toBe(2)
    expect(restored.movedAside).toMatch(/\/pg\.before-restore-\d{8}T\d{9}Z$/)
    expect(fs.existsSync(path.join(restored.movedAside!, 'PG_VERSION'))).toBe(true)
    expect(fs.existsSync(path.join(live, 'recovery.signal'))).toBe(false)
    expect(listing(dataDir).filter((n) => n.includes('.restoring-'))).toEqual([])
    expect(await liveTransfers()).toBe(2)
  })
})
