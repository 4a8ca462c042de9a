import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { createTestDatabase, databaseTargets, insertTestUser } from '../testing/index.ts'
import { startEmbeddedPostgres } from './embedded.ts'
import { migrate } from './migrate.ts'
import { openDatabase } from './pool.ts'

describe.each(databaseTargets())('migrations on $name', (target) => {
  test('apply once and are recorded; a second run applies nothing', async () => {
    const db = await createTestDatabase(target)
    try {
      expect(await migrate(db.pool)).toEqual([])
      const applied = await db.pool.query('SELECT name FROM schema_migrations ORDER BY name')
      expect(applied.rows.map((r) => r.name)).toContain('0001_users_sessions_news_settings.sql')
    } finally {
      await db.drop()
    }
  })

  test('the settings service records every change', async () => {
    const db = await createTestDatabase(target)
    try {
      const { createSettingsService } = await import('../modules/settings/settings.service.ts')
      const settings = createSettingsService(db.pool)
      expect((await settings.get()).loginWindowMs).toBe(300_000)
      expect((await settings.set('loginWindowMs', 120_000, 'test')).loginWindowMs).toBe(120_000)
      await expect(settings.set('loginWindowMs', -1, 'test')).rejects.toMatchObject({
        reason: 'invalid_params',
      })
      const changes = await db.pool.query('SELECT key, old_value, new_value FROM setting_changes')
      expect(changes.rows).toEqual([{ key: 'loginWindowMs', old_value: null, new_value: 120_000 }])
    } finally {
      await db.drop()
    }
  })
})

describe.each(databaseTargets())('direct member counts on $name', (target) => {
  test('count every member added, one by one or in bulk, and follow a move', async () => {
    const db = await createTestDatabase(target)
    try {
      const root = await insertTestUser(db.pool)
      const a = await insertTestUser(db.pool, { inviterId: root.id })
      const b = await insertTestUser(db.pool, { inviterId: root.id })
      // One statement adding members under two inviters.
      await db.pool.query(
        `INSERT INTO users (user_name, nick_name, referral_code, inviter_id)
         SELECT '0x' || md5(random()::text || g), 'bulk', upper(substr(md5(random()::text || g), 1, 10)),
                CASE WHEN g % 3 = 0 THEN $1::bigint ELSE $2::bigint END
           FROM generate_series(1, 30) AS g`,
        [a.id, b.id],
      )
      const moved = await insertTestUser(db.pool, { inviterId: a.id })
      await db.pool.query('UPDATE users SET inviter_id = $2 WHERE id = $1', [moved.id, b.id])
      const differ = await db.pool.query(
        `SELECT u.id, coalesce(d.members, 0) AS kept, (SELECT count(*) FROM users c WHERE c.inviter_id = u.id) AS counted
           FROM users u LEFT JOIN direct_counts d ON d.user_id = u.id
          WHERE coalesce(d.members, 0) <> (SELECT count(*) FROM users c WHERE c.inviter_id = u.id)`,
      )
      expect(differ.rows).toEqual([])
      const kept = await db.pool.query<{ user_id: string; members: string }>(
        'SELECT user_id, members FROM direct_counts WHERE user_id = ANY($1) ORDER BY user_id',
        [[root.id, a.id, b.id]],
      )
      expect(kept.rows.map((r) => [Number(r.user_id), Number(r.members)])).toEqual([
        [root.id, 2],
        [a.id, 10],
        [b.id, 21],
      ])
    } finally {
      await db.drop()
    }
  })
})

describe('embedded PostgreSQL', () => {
  const dirs: string[] = []
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-embedded-'))
    fs.chmodSync(dir, 0o755)
    dirs.push(dir)
    return dir
  }
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

  test('a server left running by a killed app is stopped, not a crash, and data survives', async () => {
    const dir = path.join(tempDir(), 'pg')
    const first = await startEmbeddedPostgres(dir)
    const a = openDatabase(first.url, 1)
    await a.pool.query('CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)')
    await a.close()
    // `first` is never stopped, as when the app is killed with SIGKILL.
    const pid = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0])
    const second = await startEmbeddedPostgres(dir)
    try {
      expect(() => process.kill(pid, 0)).toThrow()
      const b = openDatabase(second.url, 1)
      expect((await b.pool.query('SELECT v FROM kept')).rows).toEqual([{ v: 42 }])
      await b.close()
    } finally {
      await second.stop()
    }
  })

  test('a data directory holding something else gives a clear message', async () => {
    const dir = path.join(tempDir(), 'pg')
    fs.mkdirSync(dir)
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x')
    await expect(startEmbeddedPostgres(dir)).rejects.toThrow(/is not a PostgreSQL data directory/)
  })

  test.runIf(process.getuid?.() === 0)(
    'a data directory the postgres user cannot reach gives a clear message',
    async () => {
      const parent = tempDir()
      const closed = path.join(parent, 'private')
      fs.mkdirSync(closed, { mode: 0o700 })
      await expect(startEmbeddedPostgres(path.join(closed, 'pg'))).rejects.toThrow(
        /cannot enter .*private.*DATA_DIR/,
      )
    },
  )
})
