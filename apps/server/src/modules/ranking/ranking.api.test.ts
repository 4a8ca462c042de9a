import type { Ranking } from '@hope/api'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  DEMO_ROOT,
  buildTestApp,
  call,
  databaseTargets,
  insertTestUser,
  registerUser,
  useTestApp,
  type TestUser,
} from '../../testing/index.ts'
import { createRankingJob } from './ranking.job.ts'
import { maskAddress } from './ranking.rules.ts'

/** 04:00 UTC is noon of the same day in the default settlement time zone (UTC+8). */
const DAY1 = Date.parse('2031-05-10T04:00:00Z')
const DAY_MS = 86_400_000

describe.each(databaseTargets())('ranking API on $name', (target) => {
  const t = useTestApp(target)
  let day1: FastifyInstance
  let alice: TestUser
  let nobody: TestUser
  let bob: { id: number; userName: string }
  let carol: typeof bob
  let robot: typeof bob
  const everyone: string[] = []

  const ranking = async (
    on: FastifyInstance,
    params: Record<string, string>,
    token = alice.token,
  ): Promise<Ranking> => {
    const res = await call<'main/ranking', Ranking>(on, 'main/ranking', params, { token })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.data
  }
  const invite = async (inviterId: number, n: number, opts: { robot?: boolean } = {}) => {
    const made = []
    for (let i = 0; i < n; i++) {
      const u = await insertTestUser(t.db.pool, { inviterId })
      if (opts.robot)
        await t.db.pool.query('UPDATE users SET is_robot = true WHERE id = $1', [u.id])
      everyone.push(u.userName)
      made.push(u)
    }
    return made
  }
  /** Consensus performance for every upline of `userId`, as a consensus entry adds it. */
  const perform = (userId: number, usdt: string) =>
    t.db.pool.query('SELECT team_add($1, 0, $2, 0)', [userId, usdt])

  beforeAll(async () => {
    day1 = await buildTestApp(t.db, { now: () => DAY1 })
    const rootId = Number(
      (await t.db.pool.query('SELECT id FROM users WHERE user_name = $1', [DEMO_ROOT.userName]))
        .rows[0].id,
    )
    // root invites alice, bob, carol and a robot; alice 4 (+1 robot), bob 3, carol 1, the robot 5
    alice = await registerUser(t.app)
    bob = await insertTestUser(t.db.pool, { inviterId: rootId })
    carol = await insertTestUser(t.db.pool, { inviterId: rootId })
    robot = (await invite(rootId, 1, { robot: true }))[0]!
    everyone.push(DEMO_ROOT.userName, alice.userName, bob.userName, carol.userName)
    const [a1] = await invite(alice.id, 4)
    const [r1] = await invite(alice.id, 1, { robot: true })
    const [b1] = await invite(bob.id, 3)
    await invite(carol.id, 1)
    const [x1] = await invite(robot.id, 5)
    // performance: alice 500 (a1), bob 500 (b1), the robot 9000; root above them all 10,000
    await perform(a1!.id, '500')
    await perform(b1!.id, '500')
    await perform(x1!.id, '9000')
    await perform(r1!.id, '0')
    nobody = await registerUser(t.app, carol.userName)
    everyone.push(nobody.userName)
  })
  afterAll(async () => {
    await day1?.close()
  })

  test('top inviters: masked addresses, direct invitations without robots, ties to the earlier member', async () => {
    const r = await ranking(day1, { kind: 'inviters' })
    expect(r.day).toBe('2031-05-10')
    expect(r.takenAt).toBe(new Date(DAY1).toISOString())
    expect(r.list).toEqual([
      { rank: 1, address: maskAddress(alice.userName), value: '4', mine: true },
      { rank: 2, address: maskAddress(DEMO_ROOT.userName), value: '3', mine: false },
      { rank: 3, address: maskAddress(bob.userName), value: '3', mine: false },
      { rank: 4, address: maskAddress(carol.userName), value: '2', mine: false },
    ])
    expect(r.myRank).toBe(1)
  })

  test('top performance: team consensus performance, the robot left out', async () => {
    const r = await ranking(day1, { kind: 'performance' })
    expect(r.list).toEqual([
      { rank: 1, address: maskAddress(DEMO_ROOT.userName), value: '10000', mine: false },
      { rank: 2, address: maskAddress(alice.userName), value: '500', mine: true },
      { rank: 3, address: maskAddress(bob.userName), value: '500', mine: false },
    ])
    expect(r.myRank).toBe(2)
  })

  test('no full address ever leaves the server', async () => {
    for (const kind of ['inviters', 'performance']) {
      const res = await call(day1, 'main/ranking', { kind }, { token: alice.token })
      const text = JSON.stringify(res.body).toLowerCase()
      for (const address of everyone) expect(text).not.toContain(address.slice(2))
      expect(text).not.toContain(maskAddress(robot.userName))
    }
  })

  test('pageSize cuts the list, my place still told; a member not ranked has none', async () => {
    const r = await ranking(day1, { kind: 'performance', pageSize: '1' })
    expect(r.list.map((i) => i.rank)).toEqual([1])
    expect(r.myRank).toBe(2)
    const mine = await ranking(day1, { kind: 'inviters' }, nobody.token)
    expect(mine.myRank).toBeNull()
    expect(mine.list.some((i) => i.mine)).toBe(false)
  })

  test('the day keeps its snapshot; the next day takes a new one', async () => {
    const before = await ranking(day1, { kind: 'inviters' })
    await invite(carol.id, 3)
    await t.db.pool.query('UPDATE users SET is_robot = true WHERE id = $1', [bob.id])
    expect(await ranking(day1, { kind: 'inviters' })).toEqual(before)
    const day2 = await buildTestApp(t.db, { now: () => DAY1 + DAY_MS })
    try {
      const r = await ranking(day2, { kind: 'inviters' })
      expect(r.day).toBe('2031-05-11')
      expect(r.list.map((i) => [i.address, i.value])).toEqual([
        [maskAddress(carol.userName), '5'],
        [maskAddress(alice.userName), '4'],
        [maskAddress(DEMO_ROOT.userName), '2'],
      ])
      const again = await ranking(day2, { kind: 'inviters' })
      expect(again).toEqual(r)
    } finally {
      await day2.close()
    }
  })

  test('the job takes the day again once rankingRefreshMinutes old; the answer says when and in which zone', async () => {
    let clock = DAY1 + 5 * DAY_MS
    const later = await buildTestApp(t.db, { now: () => clock })
    try {
      const job = createRankingJob(later.services.ranking)
      expect(job.intervalMs).toBeLessThanOrEqual(60_000)
      expect(await job.tick()).toEqual({ taken: 2 })
      const first = await ranking(later, { kind: 'inviters' }, nobody.token)
      expect(first).toMatchObject({
        day: '2031-05-15',
        utcOffsetMinutes: 480,
        takenAt: new Date(clock).toISOString(),
        refreshMinutes: 60,
        myRank: null,
      })
      await invite(nobody.id, 9)
      clock += 59 * 60_000
      expect(await job.tick()).toEqual({ taken: 0 })
      expect(await ranking(later, { kind: 'inviters' }, nobody.token)).toEqual(first)
      clock += 60_000
      expect(await job.tick()).toEqual({ taken: 2 })
      const hourly = await ranking(later, { kind: 'inviters' }, nobody.token)
      expect(hourly.takenAt).toBe(new Date(clock).toISOString())
      expect(hourly.list[0]).toMatchObject({ rank: 1, value: '9', mine: true })
      expect(hourly.myRank).toBe(1)

      await later.services.settings.set('rankingRefreshMinutes', 15, 'test')
      clock += 15 * 60_000
      expect(await job.tick()).toEqual({ taken: 2 })
      expect((await ranking(later, { kind: 'performance' })).refreshMinutes).toBe(15)
    } finally {
      await later.close()
    }
  })

  test('concurrent takers of one day take it once', async () => {
    const day = '2031-06-01'
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => t.app.services.ranking.ensureSnapshot(day)),
    )
    expect(results.reduce((n, r) => n + r.taken, 0)).toBe(2)
    const kinds = await t.db.pool.query(
      'SELECT kind, count(*)::int AS n FROM ranking_entries WHERE day = $1 GROUP BY kind ORDER BY kind',
      [day],
    )
    expect(kinds.rows.map((r) => r.kind)).toEqual(['inviters', 'performance'])
  })

  test('refuses an unknown kind, a bad page size or no session', async () => {
    for (const params of [
      { kind: 'richest' },
      {},
      { kind: 'inviters', pageSize: '101' },
      { kind: 'inviters', pageSize: '0' },
    ]) {
      const res = await call(day1, 'main/ranking', params, { token: alice.token })
      expect([res.status, res.body.reason], JSON.stringify(params)).toEqual([400, 'invalid_params'])
    }
    const anonymous = await call(day1, 'main/ranking', { kind: 'inviters' })
    expect([anonymous.status, anonymous.body.reason]).toEqual([401, 'not_logged_in'])
  })
})
