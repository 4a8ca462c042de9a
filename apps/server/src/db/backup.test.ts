import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  chooseBaseBackup,
  restoreDataDirectory,
  restoreDeployment,
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

// A whole DATA_DIR (database, keys, uploads, local chain state) backed up with BACKUP_KEY and
// the disk lost: a restore into a new DATA_DIR brings all of it back.
describe('restoreDeployment', () => {
  let dataDir: string
  let backupDir: string
  let elsewhere: string
  const key = Buffer.alloc(32, 7)
  const files = {
    'operator-secret.key': 'a'.repeat(64),
    'por-seal.key': 'b'.repeat(64),
    'uploads/0123abcd.png': 'png bytes',
    'chain/state.json': '{"block":{"number":"0x10"}}',
  }
  const listing = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [])

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-deployment-'))
    elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-deployment-restored-'))
    fs.chmodSync(dataDir, 0o755)
    fs.chmodSync(elsewhere, 0o755)
    backupDir = path.join(elsewhere, 'backup')
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dataDir, name)), { recursive: true })
      fs.writeFileSync(path.join(dataDir, name), text)
    }
    const live = path.join(dataDir, 'pg')
    const db = await startEmbeddedPostgres(live, () => {}, {
      archive: { dir: backupDir, timeoutS: 60 },
    })
    try {
      const client = new pg.Client({ connectionString: db.url })
      await client.connect()
      try {
        await client.query(
          `CREATE TABLE ledger_transfers (id serial PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now());
           INSERT INTO ledger_transfers DEFAULT VALUES`,
        )
      } finally {
        await client.end()
      }
      const taken = await takeBaseBackup({
        url: db.url,
        dataDir: live,
        backupDir,
        files: { dataDir, backupKey: key },
      })
      expect(taken.files).toEqual({
        keys: ['operator-secret.key', 'por-seal.key'],
        uploads: 1,
        chainState: true,
      })
      // The keys are in the backup only encrypted.
      const inBackup = fs.readdirSync(taken.dir, { recursive: true }).map(String)
      expect(inBackup.filter((n) => n.endsWith('.key'))).toEqual([])
      for (const f of inBackup.filter((n) => n.startsWith('files/keys')))
        expect(fs.readFileSync(path.join(taken.dir, f)).toString('latin1')).not.toContain(
          'a'.repeat(64),
        )
    } finally {
      await db.stop()
    }
  })
  afterAll(() => {
    for (const d of [dataDir, elsewhere]) if (d) fs.rmSync(d, { recursive: true, force: true })
  })

  test('a PostgreSQL data directory given instead of its DATA_DIR is refused, nothing made', async () => {
    const before = listing(dataDir)
    await expect(
      restoreDeployment({
        backupDir,
        dataDir: path.join(dataDir, 'pg'),
        target: 'latest',
        backupKey: key,
        replace: true,
      }),
    ).rejects.toThrow(`--data-dir takes the DATA_DIR that holds it as pg (${dataDir})`)
    expect(listing(dataDir)).toEqual(before)
  })

  test('keys that cannot be opened (no BACKUP_KEY, another key) are refused before anything moves', async () => {
    const target = path.join(elsewhere, 'no-key')
    await expect(
      restoreDeployment({ backupDir, dataDir: target, target: 'latest', backupKey: undefined }),
    ).rejects.toThrow(/set BACKUP_KEY/)
    await expect(
      restoreDeployment({
        backupDir,
        dataDir: target,
        target: 'latest',
        backupKey: Buffer.alloc(32, 8),
      }),
    ).rejects.toThrow(/BACKUP_KEY does not open the keys/)
    expect(fs.existsSync(target)).toBe(false)
    expect(listing(elsewhere).filter((n) => n.includes('restoring'))).toEqual([])
  })

  test('a lost disk: a new DATA_DIR gets the database, the keys, the uploads and the chain state', async () => {
    const target = path.join(elsewhere, 'data')
    const restored = await restoreDeployment({
      backupDir,
      dataDir: target,
      target: 'latest',
      backupKey: key,
    })
    expect(restored.transfers).toBe(1)
    expect(restored.missing).toEqual([])
    for (const [name, text] of Object.entries(files))
      expect(fs.readFileSync(path.join(target, name), 'utf8')).toBe(text)
    expect(fs.statSync(path.join(target, 'operator-secret.key')).mode & 0o777).toBe(0o600)
    expect(fs.existsSync(path.join(target, 'pg', 'PG_VERSION'))).toBe(true)
    expect(fs.existsSync(path.join(target, 'pg', 'files'))).toBe(false)
    // Again on the same DATA_DIR: its database and keys are not replaced unasked.
    await expect(
      restoreDeployment({ backupDir, dataDir: target, target: 'latest', backupKey: key }),
    ).rejects.toThrow(/add --replace/)
    fs.writeFileSync(path.join(target, 'por-seal.key'), 'c'.repeat(64))
    await expect(
      restoreDeployment({ backupDir, dataDir: target, target: 'latest', backupKey: key }),
    ).rejects.toThrow(`${target} has its own por-seal.key`)
    // With --replace: the database and the differing key moved aside; the chain, newer than any
    // backup, is never rolled back.
    fs.writeFileSync(path.join(target, 'chain/state.json'), '{"block":{"number":"0x20"}}')
    const again = await restoreDeployment({
      backupDir,
      dataDir: target,
      target: 'latest',
      backupKey: key,
      replace: true,
    })
    expect(again.files).toEqual(['key por-seal.key'])
    expect(fs.readFileSync(path.join(target, 'por-seal.key'), 'utf8')).toBe('b'.repeat(64))
    expect(
      listing(target).filter((n) => n.startsWith('por-seal.key.before-restore-')),
    ).toHaveLength(1)
    expect(fs.readFileSync(path.join(target, 'chain/state.json'), 'utf8')).toContain('0x20')
  })
})
