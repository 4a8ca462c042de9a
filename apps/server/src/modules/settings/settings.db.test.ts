import { beforeAll, describe, expect, test } from 'vitest'
import { inTransaction } from '../../db/transaction.ts'
import { databaseTargets, useTestDatabase } from '../../testing/index.ts'
import { createSettingsService, type SettingsService } from './settings.service.ts'

describe.each(databaseTargets())('settings on $name', (target) => {
  const t = useTestDatabase(target)
  let settings: SettingsService
  beforeAll(async () => {
    settings = createSettingsService(t.db.pool)
  })

  const history = async (key: string) =>
    (
      await t.db.pool.query<{ old: unknown; new: unknown; reason: string | null }>(
        'SELECT old_value AS old, new_value AS new, reason FROM setting_changes WHERE key = $1 ORDER BY id',
        [key],
      )
    ).rows

  test('two changes of a key never set before go one after the other: the second sees the first', async () => {
    const key = 'newAddressHoldHours'
    await t.db.pool.query('DELETE FROM settings WHERE key = $1', [key])
    let firstWrote!: () => void
    const wrote = new Promise<void>((resolve) => (firstWrote = resolve))
    let releaseFirst!: () => void
    const held = new Promise<void>((resolve) => (releaseFirst = resolve))
    const first = inTransaction(t.db.pool, async (q) => {
      await settings.write(q, { key, value: 12, changedBy: 'a', reason: 'first' })
      firstWrote()
      await held
    })
    await wrote
    const second = inTransaction(t.db.pool, (q) =>
      settings.write(q, { key, value: 48, changedBy: 'b', reason: 'second' }),
    )
    // The second waits on the first's hold of the key (there is no row yet to lock).
    await new Promise((resolve) => setTimeout(resolve, 200))
    releaseFirst()
    await first
    expect(await second).toBe('12')
    expect(await history(key)).toEqual([
      { old: null, new: 12, reason: 'first' },
      { old: 12, new: 48, reason: 'second' },
    ])
    expect((await settings.get())[key]).toBe(48)
  })

  test('a change the app makes itself is recorded without a reason', async () => {
    await settings.set('loginWindowMs', 120_000, 'app')
    expect((await history('loginWindowMs')).at(-1)).toMatchObject({ new: 120_000, reason: null })
  })
})
