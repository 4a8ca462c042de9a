import {
  parseAmount,
  type AccountLogPage,
  type BalanceList,
  type CollectResult,
  type Earnings,
  type StakeResult,
  type GameInfo,
  type Page,
  type PledgeItem,
  type SettlementRun,
  type RedeemResult,
  type StakePosition,
  type DirectMember,
  type PurchaseResult,
  type TeamStats,
  type VipInfo,
  type MemberFlags,
} from '@hope/api'
import { beforeAll, describe, expect, test } from 'vitest'
import { verifyLedger } from './modules/ledger/ledger.verify.ts'
import {
  call,
  databaseTargets,
  fundAccount,
  keyMaker,
  newOperator,
  registerUser,
  useTestApp,
  type TestUser,
} from './testing/index.ts'

describe.each(databaseTargets())('token economy API on $name', (target) => {
  const t = useTestApp(target)
  // alice (level 3) → bob → carol
  let alice: TestUser
  let bob: typeof alice
  let carol: typeof alice
  let finance: string
  const key = keyMaker('g')

  beforeAll(async () => {
    alice = await registerUser(t.app)
    bob = await registerUser(t.app, alice.userName)
    carol = await registerUser(t.app, bob.userName)
    await t.db.pool.query('UPDATE users SET level = 3 WHERE id = $1', [alice.id])
    await fundAccount(t.db.pool, carol.id, '1000')
    finance = await newOperator(t.app, 'fin', 'finance')
  })

  const balances = async (user: { token: string }) => {
    const res = await t.as<'userAccount/balance', BalanceList>(user, 'userAccount/balance')
    return Object.fromEntries(res.body.data.map((a) => [a.kind, a.balance]))
  }
  const log = async (user: { token: string }, logType: number) =>
    (
      await t.as<'userAccount/balanceDetail', AccountLogPage>(user, 'userAccount/balanceDetail', {
        logType: String(logType),
      })
    ).body.data.list

  test('consensus entry: messages for a missing, bad or off-step amount; nothing moves', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ idempotencyKey: key() }, 'amount_required'],
      [{ amount: '', idempotencyKey: key() }, 'amount_required'],
      [{ amount: '-100', idempotencyKey: key() }, 'amount_invalid'],
      [{ amount: 'NaN', idempotencyKey: key() }, 'amount_invalid'],
      [{ amount: '100.0000001', idempotencyKey: key() }, 'amount_invalid'],
      [{ amount: '50', idempotencyKey: key() }, 'stake_amount_invalid'],
      [{ amount: '150', idempotencyKey: key() }, 'stake_amount_invalid'],
      [{ amount: '1e3', idempotencyKey: key() }, 'amount_invalid'],
      [{ amount: '100' }, 'invalid_params'],
    ]
    for (const [params, reason] of cases) {
      const res = await t.as(carol, 'game/change', params)
      expect([res.status, res.body.reason], JSON.stringify(params)).toEqual([400, reason])
    }
    const en = await call(
      t.app,
      'game/change',
      { amount: '50', idempotencyKey: key() },
      {
        token: carol.token,
        lang: 'en',
      },
    )
    expect(en.body.msg).toMatch(/minimum/)
    expect((await balances(carol)).usdt).toBe('1000')
    const broke = await t.as(alice, 'game/change', { amount: '100', idempotencyKey: key() })
    expect(broke.body.reason).toBe('insufficient_balance')
  })

  test('consensus entry buys HOPE at 0.10, pays the uplines, and a double tap moves money once', async () => {
    const params = { amount: '100', idempotencyKey: key() }
    const first = await t.as<'game/change', StakeResult>(carol, 'game/change', params)
    expect(first.body.code).toBe(200)
    expect(first.body.data.position).toMatchObject({
      principal: '100',
      hope: '1000',
      price: '0.1',
      released: '0',
      cap: '250',
      status: 'active',
    })
    const again = await t.as<'game/change', StakeResult>(carol, 'game/change', params)
    expect(again.body.data).toMatchObject({
      replayed: true,
      position: { id: first.body.data.position.id },
    })
    const changed = await t.as(carol, 'game/change', { ...params, amount: '200' })
    expect(changed.body.reason).toBe('idempotency_conflict')
    expect((await balances(carol)).usdt).toBe('900')
    // bob (direct 10% = 10 USDT → 100 HOPE), alice (level 3: 3% = 3 USDT → 30 HOPE)
    expect((await balances(bob)).community).toBe('100')
    expect((await balances(alice)).community).toBe('30')
    expect((await log(carol, 16))[0]).toMatchObject({ amount: '-100', logType: 16 })
    expect((await log(bob, 8))[0]).toMatchObject({ amount: '100', logType: 8 })
    const mine = await t.as<'game/myStake', Page<StakePosition>>(carol, 'game/myStake')
    expect(mine.body.data.total).toBe(1)
    const info = await t.as<'game/info', GameInfo>(carol, 'game/info')
    expect(info.body.data).toMatchObject({
      stage: 1,
      price: '0.1',
      stageSold: '1000',
      minEntry: '100',
      mine: { principal: '100', activePositions: 1 },
    })
  })

  test('a purchase across a stage boundary is split and the price rises', async () => {
    await t.db.pool.query(`UPDATE token_sale SET sold = 999500`)
    const res = await t.as<'game/change', StakeResult>(carol, 'game/change', {
      amount: '200',
      idempotencyKey: key(),
    })
    expect(res.body.data.fills).toEqual([
      { stage: 1, price: '0.1', hope: '500', usdt: '50' },
      { stage: 2, price: '0.11', hope: '1363.636363636363636363', usdt: '150' },
    ])
    expect((await call(t.app, 'main/getETLDPrice')).body.data).toBe('0.11')
    expect((await t.as<'game/info', GameInfo>(carol, 'game/info')).body.data).toMatchObject({
      stage: 2,
      price: '0.11',
      nextPrice: '0.12',
    })
  })

  test('redemption: messages, 80% to USDT less 5% fee, 20% pledged; replay moves nothing', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ idempotencyKey: key() }, 'redeem_amount_required'],
      [{ amount: ' ', idempotencyKey: key() }, 'redeem_amount_required'],
      [{ amount: '0', idempotencyKey: key() }, 'redeem_amount_invalid'],
      [{ amount: '-1', idempotencyKey: key() }, 'redeem_amount_invalid'],
      [{ amount: '1.0000000000000000001', idempotencyKey: key() }, 'redeem_amount_invalid'],
      [{ amount: 'abc', idempotencyKey: key() }, 'redeem_amount_invalid'],
    ]
    for (const [params, reason] of cases) {
      const res = await call(t.app, 'game/sqChange', params, { token: bob.token, lang: 'en' })
      expect([res.status, res.body.reason], JSON.stringify(params)).toEqual([400, reason])
    }
    const en = await call(
      t.app,
      'game/sqChange',
      { idempotencyKey: key() },
      {
        token: bob.token,
        lang: 'en',
      },
    )
    expect(en.body.msg).toBe('Please enter the redemption quantity')
    const before = await balances(bob)
    const tooMuch = await t.as(bob, 'game/sqChange', { amount: '100000', idempotencyKey: key() })
    expect(tooMuch.body, JSON.stringify(tooMuch.body)).toMatchObject({
      reason: 'insufficient_balance',
    })

    // price is 0.11 now: 80 HOPE → 8.8 USDT, fee 0.44, net 8.36; 20 HOPE pledged
    const params = { amount: '100', idempotencyKey: key() }
    const res = await t.as<'game/sqChange', RedeemResult>(bob, 'game/sqChange', params)
    expect(res.body.data, JSON.stringify(res.body)).toMatchObject({
      redeemed: '80',
      pledged: '20',
      price: '0.11',
      gross: '8.8',
      fee: '0.44',
      net: '8.36',
      pledge: { amount: '20', released: '0', convertible: '20', redeemed: false },
      replayed: false,
    })
    const again = await t.as<'game/sqChange', RedeemResult>(bob, 'game/sqChange', params)
    expect(again.body.data).toMatchObject({
      replayed: true,
      pledge: { id: res.body.data.pledge.id },
    })
    const after = await balances(bob)
    const units = (v: string) => parseAmount(v, 18)!
    expect(units(before.community!) - units(after.community!)).toBe(100n * 10n ** 18n)
    expect(after.usdt).toBe('8.36')
    const list = await t.as<'game/stakeList', Page<PledgeItem>>(bob, 'game/stakeList')
    expect(list.body.data.list).toHaveLength(1)
  })

  test('daily settlement pays releases once, however often it runs', async () => {
    const day = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10)
    const bobCommunity = (await balances(bob)).community!
    const refused = await t.as(carol, 'admin/settle', { day })
    expect(refused.body.reason).toBe('session_expired')
    const run = await t.as<'admin/settle', SettlementRun>(finance, 'admin/settle', { day })
    expect(run.body.data).toMatchObject({ day, status: 'done', positions: 2, pledges: 1 })
    // 0.5% of 100 and of 200 USDT at 0.11 → 0.5/0.11 + 1/0.11 HOPE; pledge: 1% of 20 = 0.2
    const community = await balances(carol)
    expect(community.community).toBe('13.636363636363636363')
    const bobBefore = parseAmount(bobCommunity, 18)!
    expect(parseAmount((await balances(bob)).community!, 18)! - bobBefore).toBe(2n * 10n ** 17n)
    const rerun = await t.as<'admin/settle', SettlementRun>(finance, 'admin/settle', { day })
    expect(rerun.body.data).toMatchObject({ id: run.body.data.id, positions: 2, pledges: 1 })
    expect((await balances(carol)).community).toBe(community.community)
    expect((await log(carol, 7)).map((e) => e.amount)).toHaveLength(2)
    // A day after tomorrow cannot be settled ahead: it would skip the releases of the days between.
    const ahead = new Date(Date.now() + 56 * 3600_000).toISOString().slice(0, 10)
    const early = await t.as(finance, 'admin/settle', { day: ahead })
    expect([early.status, early.body.reason]).toEqual([400, 'invalid_params'])
    expect((await balances(carol)).community).toBe(community.community)
    const runs = await t.db.pool.query('SELECT day::text FROM settlement_runs WHERE day = $1', [
      ahead,
    ])
    expect(runs.rows).toEqual([])
    const progress = await t.as<'admin/settlementRun', SettlementRun>(
      finance,
      'admin/settlementRun',
      { id: String(run.body.data.id) },
    )
    expect(progress.body.data.status).toBe('done')
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('team statistics: people and performance by partition, direct members, rank', async () => {
    const team = await t.as<'game/groupTj', TeamStats>(alice, 'game/groupTj')
    expect(team.body.data).toMatchObject({
      people: 2,
      directPeople: 1,
      consensus: '300',
      rank: 0,
    })
    expect(team.body.data.partitions.map((p) => p.people)).toEqual([2, 0, 0])
    // the strongest partition does not count toward ranks
    expect(team.body.data.rankPerformance).toBe('0')
    expect(team.body.data.rankThresholds).toHaveLength(5)
    const direct = await t.as<'game/groupZt', Page<DirectMember>>(alice, 'game/groupZt')
    expect(direct.body.data.list).toEqual([
      expect.objectContaining({ userName: bob.userName, teamPeople: 1, consensus: '300' }),
    ])
  })

  test('upgrade pays only the difference into split HOPE; nodes once per type', async () => {
    const refused = await t.as(carol, 'game/upgrade', { level: '0', idempotencyKey: key() })
    expect(refused.body.reason).toBe('invalid_params')
    const first = await t.as<'game/upgrade', PurchaseResult>(carol, 'game/upgrade', {
      level: '1',
      idempotencyKey: key(),
    })
    expect(first.body.data).toMatchObject({ paid: '100', level: 1, replayed: false })
    const params = { level: '3', idempotencyKey: key() }
    const up = await t.as<'game/upgrade', PurchaseResult>(carol, 'game/upgrade', params)
    // 500 − 100 = 400 USDT at 0.11
    expect(up.body.data).toMatchObject({ paid: '400', hope: '3636.363636363636363636', level: 3 })
    const again = await t.as<'game/upgrade', PurchaseResult>(carol, 'game/upgrade', params)
    expect(again.body.data).toMatchObject({ paid: '400', replayed: true })
    const otherLevel = await t.as(carol, 'game/upgrade', { ...params, level: '4' })
    expect(otherLevel.body.reason).toBe('idempotency_conflict')
    const down = await t.as(carol, 'game/upgrade', { level: '2', idempotencyKey: key() })
    expect(down.body.reason).toBe('not_an_upgrade')
    expect((await balances(carol)).usdt).toBe('200')
    const node = await t.as(carol, 'game/buyNode', { type: '1', idempotencyKey: key() })
    expect(node.body.reason).toBe('insufficient_balance')
    await fundAccount(t.db.pool, carol.id, '2000')
    const nodeKey = key()
    const bought = await t.as<'game/buyNode', PurchaseResult>(carol, 'game/buyNode', {
      type: '1',
      idempotencyKey: nodeKey,
    })
    expect(bought.body.data).toMatchObject({ paid: '1000', nodes: [1] })
    const otherType = await t.as(carol, 'game/buyNode', { type: '2', idempotencyKey: nodeKey })
    expect(otherType.body.reason).toBe('idempotency_conflict')
    const twice = await t.as(carol, 'game/buyNode', { type: '1', idempotencyKey: key() })
    expect(twice.body.reason).toBe('node_owned')
    const vip = await t.as<'game/vipInfo', VipInfo>(carol, 'game/vipInfo')
    expect(vip.body.data).toMatchObject({ level: 3, nodes: [{ type: 1, source: 'bought' }] })
    // Home reads the user info: the node is there with the level.
    const info = await t.as(carol, 'user/getUserInfo')
    expect(info.body.data).toMatchObject({ level: 3, nodes: [1] })
    const team = await t.as<'game/groupTj', TeamStats>(bob, 'game/groupTj')
    expect(team.body.data.community).toBe('1500')
  })

  test('a day settles only the split HOPE bought by its end', async () => {
    const localDay = (hours: number) =>
      new Date(Date.now() + hours * 3600_000).toISOString().slice(0, 10)
    const [yesterday, dayBefore] = [localDay(8 - 24), localDay(8 - 48)]
    // Of carol's split HOPE, 1,000 counts as bought the day before yesterday; the rest today.
    await t.db.pool.query(
      `WITH today AS (UPDATE split_grant_days SET hope = hope - 1000 WHERE user_id = $1 RETURNING 1)
       INSERT INTO split_grant_days (user_id, day, hope) SELECT $1, $2::date, 1000 FROM today`,
      [carol.id, dayBefore],
    )
    const before = await balances(carol)
    const run = await t.as<'admin/settle', SettlementRun>(finance, 'admin/settle', {
      day: yesterday,
    })
    expect(run.body.data).toMatchObject({ day: yesterday, splits: 1, status: 'done' })
    const after = await balances(carol)
    // 1% of the 1,000 bought by yesterday's end; nothing of today's purchases
    expect(parseAmount(before.split!, 18)! - parseAmount(after.split!, 18)!).toBe(10n * 10n ** 18n)
    expect((await log(carol, 4)).map((e) => e.amount)).toEqual(['-10', '10'])
  })

  test('the next day releases split HOPE and pays node holders their share', async () => {
    const tomorrow = new Date(Date.now() + 32 * 3600_000).toISOString().slice(0, 10)
    const before = await balances(carol)
    const run = await t.as<'admin/settle', SettlementRun>(finance, 'admin/settle', {
      day: tomorrow,
    })
    expect(run.body.data).toMatchObject({ positions: 2, splits: 1, status: 'done' })
    const after = await balances(carol)
    const units = (v: string) => parseAmount(v, 18)!
    // 1% of the split HOPE bought so far
    const split = await t.as<'game/vipInfo', VipInfo>(carol, 'game/vipInfo')
    expect(units(before.split!) - units(after.split!)).toBe(
      units(split.body.data.split.total) / 100n,
    )
    // carol holds the only shareholder node: 1% of the day's consensus release value
    expect(after.node).toBe(run.body.data.nodeUsdt)
    expect(Number(after.node)).toBeGreaterThan(0)
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('earnings add up the rewards each account log shows, by kind', async () => {
    const res = await t.as<'game/earnings', Earnings>(carol, 'game/earnings')
    const earnings = res.body.data
    expect(earnings.utcOffsetMinutes).toBe(480)
    expect(earnings.items.map((i) => i.logType)).toEqual([7, 8, 11, 4, 3, 10])
    for (const item of earnings.items) {
      const decimals = item.currency === 'USDT' ? 6 : 18
      const received = (await log(carol, item.logType))
        .filter((e) => !e.amount.startsWith('-'))
        .reduce((sum, e) => sum + parseAmount(e.amount, decimals)!, 0n)
      expect(parseAmount(item.total, decimals), `log ${item.logType}`).toBe(received)
    }
    const total = (t: number) => earnings.items.find((i) => i.logType === t)!.total
    expect(Number(total(7))).toBeGreaterThan(0)
    expect(total(10)).toBe((await balances(carol)).node)
    // everything here was paid during this run, on today's settlement day
    expect(earnings.items.map((i) => i.today)).toEqual(earnings.items.map((i) => i.total))
  })

  test('collect moves a node balance into USDT once; bad input moves nothing', async () => {
    const before = await balances(carol)
    const collect = (params: Record<string, string>) =>
      t.as<'userAccount/collect', CollectResult>(carol, 'userAccount/collect', params)
    const k = key()
    for (const [params, reason] of [
      [{ account: 'usdt', amount: '1', idempotencyKey: key() }, 'invalid_params'],
      [{ account: 'node', amount: '0', idempotencyKey: key() }, 'amount_invalid'],
      [{ account: 'node', amount: '-1', idempotencyKey: key() }, 'amount_invalid'],
      [{ account: 'node', amount: '0.0000001', idempotencyKey: key() }, 'amount_invalid'],
      [{ account: 'node', amount: '100000', idempotencyKey: key() }, 'insufficient_balance'],
      [{ account: 'node', idempotencyKey: key() }, 'amount_required'],
    ] as const) {
      expect((await collect(params)).body.reason, JSON.stringify(params)).toBe(reason)
    }
    expect(await balances(carol)).toEqual(before)
    const done = await collect({ account: 'node', amount: before.node!, idempotencyKey: k })
    expect(done.body.data).toMatchObject({ account: 'node', amount: before.node, replayed: false })
    const after = await balances(carol)
    expect(after.node).toBe('0')
    const units = (v: string) => parseAmount(v, 6)!
    expect(units(after.usdt!) - units(before.usdt!)).toBe(units(before.node!))
    const again = await collect({ account: 'node', amount: before.node!, idempotencyKey: k })
    expect(again.body.data.replayed).toBe(true)
    expect(await balances(carol)).toEqual(after)
    const changed = await collect({ account: 'node', amount: '0.000001', idempotencyKey: k })
    expect(changed.body.reason).toBe('idempotency_conflict')
    expect(
      (await log(carol, 9)).slice(0, 2).map((e) => [e.account, e.amount, e.counterparty]),
    ).toEqual(
      expect.arrayContaining([
        ['usdt', before.node, null],
        ['node', `-${before.node}`, null],
      ]),
    )
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('activation: an upline pays a member’s level and places the member once', async () => {
    const dave = await registerUser(t.app, bob.userName)
    const stranger = await registerUser(t.app)
    await fundAccount(t.db.pool, alice.id, '1000')
    const params = { address: dave.userName, level: '2', location: '3', idempotencyKey: key() }
    const notMine = await t.as(alice, 'game/activate', { ...params, address: stranger.userName })
    expect(notMine.body.reason).toBe('not_downline')
    const missing = await t.as(alice, 'game/activate', { ...params, address: '' })
    expect(missing.body.reason).toBe('address_required')
    const res = await t.as<'game/activate', PurchaseResult>(alice, 'game/activate', params)
    expect(res.body.data, JSON.stringify(res.body)).toMatchObject({
      paid: '300',
      level: 2,
      replayed: false,
    })
    expect((await balances(alice)).usdt).toBe('700')
    expect(Number((await balances(dave)).split)).toBeGreaterThan(0)
    const bobTeam = await t.as<'game/groupTj', TeamStats>(bob, 'game/groupTj')
    expect(bobTeam.body.data.partitions.map((p) => p.people)).toEqual([1, 0, 1])
    const again = await t.as<'game/activate', PurchaseResult>(alice, 'game/activate', params)
    expect(again.body.data.replayed).toBe(true)
    const higher = await t.as(alice, 'game/activate', { ...params, level: '3' })
    expect(higher.body.reason).toBe('idempotency_conflict')
    expect((await balances(alice)).usdt).toBe('700')
    const move = await t.as(alice, 'game/activate', {
      ...params,
      level: '3',
      location: '1',
      idempotencyKey: key(),
    })
    expect(move.body.reason).toBe('placement_locked')
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('operators grant shareholder tiers and flag robots; audited; robots earn nothing', async () => {
    const grant = { userName: bob.userName, type: '2', reason: 'e-mail application approved' }
    expect((await t.as(bob, 'admin/grantShareholder', grant)).body.reason).toBe('session_expired')
    expect(
      (await t.as(finance, 'admin/grantShareholder', { ...grant, reason: '' })).body.reason,
    ).toBe('invalid_params')
    const granted = await t.as<'admin/grantShareholder', MemberFlags>(
      finance,
      'admin/grantShareholder',
      grant,
    )
    expect(granted.body.data.nodes).toEqual([{ type: 2, source: 'granted' }])
    // finance may not flag robots (admin and support do)
    const robot = { userName: carol.userName, robot: 'true', reason: 'scripted account' }
    expect((await t.as(finance, 'admin/flagRobot', robot)).body.reason).toBe('forbidden')
    const support = await newOperator(t.app, 'sup', 'support')
    const flagged = await t.as<'admin/flagRobot', MemberFlags>(support, 'admin/flagRobot', robot)
    expect(flagged.body.data.isRobot).toBe(true)
    const audit = await t.db.pool.query(
      `SELECT action, reason, before->>'isRobot' AS before, after->>'isRobot' AS after FROM operator_audit
        WHERE action IN ('grant_shareholder', 'flag_robot') ORDER BY id`,
    )
    expect(audit.rows).toEqual([
      { action: 'grant_shareholder', reason: grant.reason, before: 'false', after: 'false' },
      { action: 'flag_robot', reason: robot.reason, before: 'false', after: 'true' },
    ])

    const carolBefore = await balances(carol)
    // The daily job's run of a day no other test settles (operators may settle up to tomorrow).
    const day = new Date(Date.now() + 56 * 3600_000).toISOString().slice(0, 10)
    const run = await t.app.services.settlement.settle(day)
    expect(run.status).toBe('done')
    const carolAfter = await balances(carol)
    expect(carolAfter.community).toBe(carolBefore.community)
    expect(carolAfter.split).toBe(carolBefore.split)
    // no consensus releases paid to anyone that day (carol holds every position): nothing to share
    expect(run.nodeUsdt).toBe('0')
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })
})
