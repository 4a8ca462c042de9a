import { randomBytes } from 'node:crypto'
import type { AdminSignInsByDay } from '@hope/api'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  call,
  databaseTargets,
  insertTestUser,
  newOperator,
  useTestApp,
} from '../../testing/index.ts'
import { localDayStart } from './console.rules.ts'

const DAY_MS = 86_400_000

describe('sign-ins per day in the console', () => {
  const t = useTestApp(databaseTargets()[0]!)
  let token = ''
  beforeAll(async () => {
    token = await newOperator(t.app, 'op-sign-ins', 'support')
  })
  const byDay = async () =>
    (
      await call<'admin/signInsByDay', AdminSignInsByDay>(
        t.app,
        'admin/signInsByDay',
        {},
        { token },
      )
    ).body
  /** `count` sessions opened at `at` with `message`. */
  const opened = async (at: Date, message: 'siwe' | 'legacy' | null, count = 1) => {
    const user = await insertTestUser(t.db.pool)
    for (let i = 0; i < count; i++)
      await t.db.pool.query(
        `INSERT INTO sessions (user_id, token_hash, pair_hash, ip, expires_at, login_message, created_at)
         VALUES ($1, $2, $3, '10.0.0.1', $4::timestamptz + interval '7 days', $5, $4)`,
        [user.id, randomBytes(32), randomBytes(32), at, message],
      )
  }

  test('30 days, oldest first, today last, each with its share of legacy sign-ins', async () => {
    // The settlement's days: UTC+8 by default.
    const today = localDayStart(Date.now(), 480).getTime()
    const dayOf = (start: number) => new Date(start + 480 * 60_000).toISOString().slice(0, 10)
    const empty = await byDay()
    expect(empty.code).toBe(200)
    expect(empty.data).toMatchObject({ days: 30, legacyAccepted: true })
    expect(empty.data.list).toHaveLength(30)
    expect(empty.data.list[0]!.day).toBe(dayOf(today - 29 * DAY_MS))
    expect(empty.data.list[29]!.day).toBe(dayOf(today))
    for (const d of empty.data.list)
      expect(d).toMatchObject({ siwe: 0, legacy: 0, legacyShare: null })

    const hour = 3_600_000
    await opened(new Date(today + hour), 'siwe', 3)
    await opened(new Date(today + 2 * hour), 'legacy', 1)
    await opened(new Date(today - 2 * DAY_MS + hour), 'legacy', 2)
    // The first day's first minute and the last minute before it.
    await opened(new Date(today - 29 * DAY_MS), 'siwe', 1)
    await opened(new Date(today - 29 * DAY_MS - 60_000), 'legacy', 5)
    // Sessions from before messages were recorded count for neither; tomorrow is not shown.
    await opened(new Date(today + 3 * hour), null, 4)
    await opened(new Date(today + DAY_MS + hour), 'legacy', 7)

    const seen = (await byDay()).data.list
    expect(seen).toHaveLength(30)
    expect(seen[29]).toEqual({ day: dayOf(today), siwe: 3, legacy: 1, legacyShare: 0.25 })
    expect(seen[27]).toEqual({
      day: dayOf(today - 2 * DAY_MS),
      siwe: 0,
      legacy: 2,
      legacyShare: 1,
    })
    expect(seen[0]).toEqual({
      day: dayOf(today - 29 * DAY_MS),
      siwe: 1,
      legacy: 0,
      legacyShare: 0,
    })
    const quiet = seen.filter((_, i) => ![0, 27, 29].includes(i))
    for (const d of quiet) expect(d).toMatchObject({ siwe: 0, legacy: 0, legacyShare: null })
    expect(new Set(seen.map((d) => d.day)).size).toBe(30)
  })

  test('shows whether the legacy message is still accepted; operators only', async () => {
    await t.app.services.settings.set('legacyLoginMessage', false, 'test')
    try {
      expect((await byDay()).data.legacyAccepted).toBe(false)
    } finally {
      await t.app.services.settings.set('legacyLoginMessage', true, 'test')
    }
    const anonymous = await call(t.app, 'admin/signInsByDay')
    expect(anonymous.body).toMatchObject({ code: 401 })
  })
})
