import { randomBytes } from 'node:crypto'
import {
  ROUTES,
  type AdminAuditEntry,
  type AdminBulkReviewResult,
  type AdminDashboard,
  type AdminDeposit,
  type AdminLedgerCheck,
  type AdminSetting,
  type AdminSettingChange,
  type AdminUser,
  type AdminUserTree,
  type AdminWithdrawal,
  type OperatorRole,
  type Page,
  type RoutePath,
  type SettlementRuns,
  type Withdrawal,
} from '@hope/api'
import { beforeAll, describe, expect, test } from 'vitest'
import { connectChain } from '../../chain/chain.service.ts'
import { raiseAlarm, resolveAlarm } from '../alarm/alarm.repository.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'
import { SETTING_SCHEMAS } from '../settings/settings.rules.ts'
import {
  DEMO_ROOT,
  call,
  databaseTargets,
  fundAccount,
  insertTestUser,
  keyMaker,
  newOperator,
  registerUser,
  useTestApp,
} from '../../testing/index.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

const CHAIN_ID = 31337
const operatorRoutes = (Object.keys(ROUTES) as RoutePath[]).filter(
  (p) => ROUTES[p].auth === 'operator',
)
const rolesOf = (p: RoutePath): readonly OperatorRole[] => {
  const def = ROUTES[p]
  return ('roles' in def ? def.roles : undefined) ?? []
}

describe.each(databaseTargets())('operator console API on $name', (target) => {
  // Payouts are the sender job's; these tests never reach the chain.
  const t = useTestApp(target, { chain: connectChain('http://127.0.0.1:9', CHAIN_ID) })
  const token: Record<OperatorRole, string> = { admin: '', finance: '', content: '', support: '' }
  const key = keyMaker('adm')
  const hash = () => `0x${randomBytes(32).toString('hex')}`

  const as = <T>(role: OperatorRole, path: RoutePath, params: Record<string, unknown> = {}) =>
    call<RoutePath, T>(t.app, path, params, { token: token[role], lang: 'en' })
  const withdraw = async (userToken: string, amount: string) =>
    (
      await t.as<'userAccount/withdraw', Withdrawal>(userToken, 'userAccount/withdraw', {
        amount,
        idempotencyKey: key(),
      })
    ).body.data
  const insertDeposit = (d: {
    userId: number | null
    amount: string
    status: string
    block: number
    from?: string
    txHash?: string
    updatedAt?: string
  }) =>
    t.db.pool.query(
      `INSERT INTO deposits (chain_id, tx_hash, log_index, block_number, block_hash, token, from_address, amount, user_id, status, updated_at)
       VALUES ($1, $2, 0, $3, $4, '0x00000000000000000000000000000000000000aa', $5, $6, $7, $8, coalesce($9::timestamptz, now()))`,
      [
        CHAIN_ID,
        d.txHash ?? hash(),
        d.block,
        hash(),
        d.from ?? `0x${randomBytes(20).toString('hex')}`,
        d.amount,
        d.userId,
        d.status,
        d.updatedAt ?? null,
      ],
    )
  const auditRows = async (action: string) =>
    (await as<Page<AdminAuditEntry>>('admin', 'admin/audit', { action, pageSize: '100' })).body.data

  beforeAll(async () => {
    for (const role of ['admin', 'finance', 'content', 'support'] as const)
      token[role] = await newOperator(t.app, `op-${role}`, role, `${role}-password-1`)
  })

  test('the dashboard counts a small seeded set', async () => {
    const empty = (await as<AdminDashboard>('finance', 'admin/dashboard')).body.data
    expect(empty.ledger).toEqual({ ok: false, checkedAt: null, problems: [] })
    expect(empty.lastSettlement).toBeNull()

    // The demo root and one member joined days ago; three members today, one a robot.
    await t.db.pool.query(
      `UPDATE users SET created_at = now() - interval '3 days' WHERE user_name = $1`,
      [DEMO_ROOT.userName],
    )
    const old = await insertTestUser(t.db.pool)
    await t.db.pool.query(`UPDATE users SET created_at = now() - interval '3 days' WHERE id = $1`, [
      old.id,
    ])
    const [a, b, robot] = [
      await registerUser(t.app),
      await registerUser(t.app),
      await registerUser(t.app),
    ]
    await t.db.pool.query('UPDATE users SET is_robot = true WHERE id = $1', [robot.id])

    // Credited deposits: 10.5 today, 4 days ago; one still confirming, one from a stranger.
    await insertDeposit({ userId: a.id, amount: '10.5', status: 'credited', block: 100 })
    await insertDeposit({
      userId: b.id,
      amount: '4',
      status: 'credited',
      block: 90,
      updatedAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    })
    await insertDeposit({ userId: b.id, amount: '7', status: 'on_chain', block: 110 })
    await insertDeposit({ userId: null, amount: '2', status: 'unattributed', block: 105 })

    // Two withdrawals pending, then one approved.
    await fundAccount(t.db.pool, a.id, '100')
    const w1 = await withdraw(a.token, '20')
    await withdraw(a.token, '30.25')
    await as('finance', 'admin/bulkReviewWithdraw', { ids: String(w1.id), decision: 'approve' })

    await t.db.pool.query(
      `INSERT INTO settlement_runs (day, status, finished_at) VALUES ('2026-01-01', 'done', now()), ('2026-01-02', 'done', now())`,
    )

    const d = (await as<AdminDashboard>('support', 'admin/dashboard')).body.data
    expect(d.users).toEqual({ total: 5, today: 3, robots: 1 })
    expect(d.deposits).toEqual({ count: 2, usdt: '14.5', today: '10.5' })
    expect(d.withdrawals).toEqual({ pending: 1, pendingUsdt: '30.25', approvedToday: 1 })
    expect(d.lastSettlement).toMatchObject({ day: '2026-01-02', status: 'done' })
  })

  test('the dashboard lists the open alarms the jobs raised, newest first', async () => {
    expect((await as<AdminDashboard>('support', 'admin/dashboard')).body.data.alarms).toEqual([])
    const alarm = (key: string) => ({
      key,
      kind: 'payout_nonce_taken',
      message: `payout ${key} cannot be mined`,
      detail: { withdrawalId: 1 },
    })
    expect(await raiseAlarm(t.db.pool, alarm('a'))).toBe(true)
    expect(await raiseAlarm(t.db.pool, alarm('b'))).toBe(true)
    expect(await raiseAlarm(t.db.pool, alarm('a'))).toBe(false)
    await raiseAlarm(t.db.pool, alarm('c'))
    await resolveAlarm(t.db.pool, 'c')
    const d = (await as<AdminDashboard>('finance', 'admin/dashboard')).body.data
    expect(d.alarms).toEqual([
      {
        id: expect.any(Number),
        kind: 'payout_nonce_taken',
        message: 'payout b cannot be mined',
        detail: { withdrawalId: 1 },
        raisedAt: expect.any(String),
      },
      expect.objectContaining({ message: 'payout a cannot be mined' }),
    ])
    await resolveAlarm(t.db.pool, 'a')
    await resolveAlarm(t.db.pool, 'b')
  })

  test('the ledger check runs now for an admin, is kept, and reports a broken balance', async () => {
    const now = await as<AdminLedgerCheck>('admin', 'admin/checkLedger')
    expect(now.body.data).toMatchObject({ ok: true, problems: [] })
    expect(now.body.data.transfers).toBeGreaterThan(0)
    let d = (await as<AdminDashboard>('content', 'admin/dashboard')).body.data
    expect(d.ledger).toEqual({ ok: true, checkedAt: now.body.data.checkedAt, problems: [] })

    // A balance changed behind the ledger's back is named by the next check.
    const account = (
      await t.db.pool.query<{ id: string }>(
        `SELECT id FROM ledger_accounts WHERE kind = 'usdt' AND user_id IS NOT NULL ORDER BY id LIMIT 1`,
      )
    ).rows[0]!.id
    await t.db.pool.query('UPDATE ledger_accounts SET balance = balance + 1 WHERE id = $1', [
      account,
    ])
    try {
      const broken = await t.app.services.admin.checkLedgerTick()
      expect(broken).toEqual({ problems: expect.any(Number) })
      d = (await as<AdminDashboard>('admin', 'admin/dashboard')).body.data
      expect(d.ledger.ok).toBe(false)
      expect(d.ledger.problems.join('\n')).toContain(`account ${account} balance`)
    } finally {
      await t.db.pool.query('UPDATE ledger_accounts SET balance = balance - 1 WHERE id = $1', [
        account,
      ])
    }

    // While another process holds the check's lock, the periodic run steps aside.
    const other = await t.db.pool.connect()
    try {
      await other.query('SELECT pg_advisory_lock($1, 1)', [LOCK_KEYS.ledgerCheck])
      expect(await t.app.services.admin.checkLedgerTick()).toEqual({ skipped: 'locked' })
    } finally {
      await other.query('SELECT pg_advisory_unlock($1, 1)', [LOCK_KEYS.ledgerCheck])
      other.release()
    }
    expect((await as('finance', 'admin/checkLedger')).body.reason).toBe('forbidden')
    expect((await as<AdminLedgerCheck>('admin', 'admin/checkLedger')).body.data.ok).toBe(true)
  })

  describe('roles', () => {
    test('every operator route names the roles it admits', () => {
      for (const path of operatorRoutes) expect(rolesOf(path).length, path).toBeGreaterThan(0)
    })

    test('a user token and no token are refused on every operator route', async () => {
      const user = await registerUser(t.app)
      for (const path of operatorRoutes) {
        const withUser = await call(t.app, path, {}, { token: user.token })
        expect([withUser.status, withUser.body.reason], path).toEqual([401, 'session_expired'])
        const anonymous = await call(t.app, path, {})
        expect([anonymous.status, anonymous.body.reason], path).toEqual([401, 'not_logged_in'])
      }
    })

    test('an operator token is refused on user routes', async () => {
      const userRoutes = (Object.keys(ROUTES) as RoutePath[]).filter((p) => ROUTES[p].auth === true)
      expect(userRoutes.length).toBeGreaterThan(10)
      for (const path of userRoutes) {
        const res = await call(t.app, path, {}, { token: token.admin })
        expect(res.status, path).not.toBe(200)
        // Routes that need no params reach the session check and say why.
        if (ROUTES[path].params.safeParse({}).success)
          expect(res.body.reason, path).toBe('session_expired')
      }
    })

    test('each role reaches exactly the routes that name it', async () => {
      for (const path of operatorRoutes) {
        if (path === 'admin/logout') continue
        for (const role of ['admin', 'finance', 'content', 'support'] as const) {
          const res = await as(role, path)
          const allowed = rolesOf(path).includes(role)
          expect(res.body.reason === 'forbidden', `${role} ${path}`).toBe(!allowed)
          if (!allowed) expect(res.status).toBe(403)
        }
      }
    })

    test('content cannot review withdrawals or change settings; support cannot credit', async () => {
      const user = await registerUser(t.app)
      await fundAccount(t.db.pool, user.id, '50')
      const w = await withdraw(user.token, '10')
      for (const [path, params] of [
        ['admin/reviewWithdraw', { id: String(w.id), decision: 'approve' }],
        ['admin/bulkReviewWithdraw', { ids: String(w.id), decision: 'approve' }],
      ] as const) {
        expect((await as('content', path, params)).body.reason).toBe('forbidden')
      }
      const mine = await t.as<'userAccount/myWithDraw', Page<Withdrawal>>(
        user,
        'userAccount/myWithDraw',
      )
      expect(mine.body.data.list[0]).toMatchObject({ id: w.id, status: 0 })

      const setting = await as('content', 'admin/updateSetting', {
        key: 'withdrawMinUsdt',
        value: '1',
        reason: 'try',
      })
      expect(setting.body.reason).toBe('forbidden')
      expect((await t.app.services.settings.get()).withdrawMinUsdt).toBe('10')

      const credit = await as('support', 'admin/credit', {
        userName: user.userName,
        account: 'usdt',
        amount: '1000',
        reason: 'try',
        idempotencyKey: key(),
      })
      expect(credit.body.reason).toBe('forbidden')
      const balance = await t.db.pool.query<{ b: string }>(
        `SELECT (balance - debits_pending)::text AS b FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt'`,
        [user.id],
      )
      expect(Number(balance.rows[0]!.b)).toBe(39)
    })
  })

  describe('withdrawals', () => {
    test('bulk review approves the pending ones and skips the others', async () => {
      const user = await registerUser(t.app)
      await fundAccount(t.db.pool, user.id, '200')
      const [p1, p2, p3, gone] = [
        await withdraw(user.token, '10'),
        await withdraw(user.token, '11'),
        await withdraw(user.token, '12'),
        await withdraw(user.token, '13'),
      ]
      await t.as(user, 'userAccount/cancelWithdraw', { id: String(gone.id) })
      const res = await as<AdminBulkReviewResult>('finance', 'admin/bulkReviewWithdraw', {
        ids: `${p1.id},${p2.id},${gone.id},999999`,
        decision: 'approve',
      })
      expect(res.body.data).toEqual({ done: [p1.id, p2.id], skipped: [gone.id, 999999] })

      const again = await as<AdminBulkReviewResult>('admin', 'admin/bulkReviewWithdraw', {
        ids: `${p1.id},${p3.id}`,
        decision: 'reject',
        reason: 'address on a block list',
      })
      expect(again.body.data).toEqual({ done: [p3.id], skipped: [p1.id] })

      const list = await as<Page<AdminWithdrawal>>('finance', 'admin/withdrawals', {
        q: user.userName.slice(0, 12),
      })
      expect(list.body.data.total).toBe(4)
      const byId = new Map(list.body.data.list.map((w) => [w.id, w]))
      expect(byId.get(p1.id)).toMatchObject({ status: 1, reviewedBy: 'op-finance' })
      expect(byId.get(p2.id)).toMatchObject({ status: 1, reviewedBy: 'op-finance' })
      expect(byId.get(p3.id)).toMatchObject({
        status: 3,
        reviewedBy: 'op-admin',
        reviewReason: 'address on a block list',
      })
      expect(byId.get(gone.id)).toMatchObject({ status: 6, reviewedBy: null })
      expect(list.body.data.list.map((w) => w.id)).toEqual([gone.id, p3.id, p2.id, p1.id])

      const approved = await as<Page<AdminWithdrawal>>('finance', 'admin/withdrawals', {
        status: '1',
        q: user.userName,
      })
      expect(approved.body.data.list.map((w) => w.id).sort()).toEqual([p1.id, p2.id].sort())

      // The rejected one's money is back; the approved ones stay reserved for the payout.
      const usdt = await t.db.pool.query<{ b: string; p: string }>(
        `SELECT balance::text AS b, debits_pending::text AS p FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt'`,
        [user.id],
      )
      expect(Number(usdt.rows[0]!.b)).toBe(200)
      expect(Number(usdt.rows[0]!.p)).toBe(10 + 1 + 11 + 1)

      const audit = await auditRows('withdraw_approve')
      const mineApproved = audit.list.filter((e) => e.targetUser === user.userName)
      expect(mineApproved.map((e) => e.operator)).toEqual(['op-finance', 'op-finance'])
      expect(mineApproved.map((e) => e.amount)).toEqual(['11', '10'])
      expect((await auditRows('withdraw_reject')).list[0]).toMatchObject({
        operator: 'op-admin',
        targetUser: user.userName,
        reason: 'address on a block list',
      })
    })

    test('bulk review takes at most 100 ids, all numbers', async () => {
      for (const ids of ['', 'a,b', '1,,2', Array.from({ length: 101 }, (_, i) => i + 1).join()]) {
        const res = await as('finance', 'admin/bulkReviewWithdraw', { ids, decision: 'approve' })
        expect(res.body.reason, ids.slice(0, 20)).toBe('invalid_params')
      }
    })
  })

  describe('settings', () => {
    test('every setting is listed with its value and default', async () => {
      const res = await as<AdminSetting[]>('admin', 'admin/settings')
      expect(res.body.data.map((s) => s.key).sort()).toEqual(Object.keys(SETTING_SCHEMAS).sort())
      expect(res.body.data.find((s) => s.key === 'levelPricesUsdt')).toEqual({
        key: 'levelPricesUsdt',
        value: '["100","300","500","1000","3000","5000","10000"]',
        defaultValue: '["100","300","500","1000","3000","5000","10000"]',
        updatedAt: null,
        updatedBy: null,
        range: {
          kind: 'list',
          length: 7,
          item: { kind: 'decimal', min: '0', max: '1000000000000' },
        },
      })
    })

    test('a bad value is refused with a translated 400 and changes nothing', async () => {
      const before = await t.app.services.settings.get()
      for (const [k, value] of [
        ['withdrawFeeFixedUsdt', 'abc'],
        ['withdrawFeeFixedUsdt', '-1'],
        ['chainConfirmations', '0'],
        ['chainConfirmations', '"12"'],
        ['levelRewardRates', '["0.01","0.02"]'],
        ['supportEmail', 'not an e-mail'],
      ]) {
        const res = await as('admin', 'admin/updateSetting', { key: k, value, reason: 'r' })
        expect([res.status, res.body.reason, res.body.msg], `${k}=${value}`).toEqual([
          400,
          'setting_invalid',
          'This value is not valid for the setting; nothing was changed',
        ])
      }
      const unknown = await as('admin', 'admin/updateSetting', {
        key: 'noSuchThing',
        value: '1',
        reason: 'r',
      })
      expect([unknown.status, unknown.body.reason]).toEqual([404, 'setting_unknown'])
      const noReason = await as('admin', 'admin/updateSetting', {
        key: 'withdrawFeeFixedUsdt',
        value: '2',
      })
      expect(noReason.body.reason).toBe('invalid_params')
      expect(await t.app.services.settings.get()).toEqual(before)
      expect((await t.db.pool.query('SELECT 1 FROM setting_changes')).rowCount).toBe(0)
      expect((await auditRows('setting_update')).total).toBe(0)
    })

    test('a change is recorded with its reason, audited, and used by the app at once', async () => {
      const first = await as<AdminSetting>('admin', 'admin/updateSetting', {
        key: 'withdrawFeeFixedUsdt',
        value: '2.5',
        reason: 'network fees rose',
      })
      expect(first.body.data).toMatchObject({
        key: 'withdrawFeeFixedUsdt',
        value: '"2.5"',
        defaultValue: '"1"',
        updatedBy: 'op-admin',
      })
      expect(first.body.data.updatedAt).not.toBeNull()
      expect((await t.app.services.settings.get()).withdrawFeeFixedUsdt).toBe('2.5')
      // The withdraw service charges the new fee.
      const user = await registerUser(t.app)
      await fundAccount(t.db.pool, user.id, '50')
      expect((await withdraw(user.token, '10')).fee).toBe('2.5')

      await as('admin', 'admin/updateSetting', {
        key: 'withdrawFeeFixedUsdt',
        value: '"1.5"',
        reason: 'back down',
      })
      await as('admin', 'admin/updateSetting', {
        key: 'levelRewardRates',
        value: '["0.01","0.02","0.03","0.04","0.05","0.06","0.08"]',
        reason: 'level 7 up',
      })
      expect((await t.app.services.settings.get()).levelRewardRates[6]).toBe('0.08')

      const history = await as<Page<AdminSettingChange>>('admin', 'admin/settingHistory', {
        key: 'withdrawFeeFixedUsdt',
      })
      expect(history.body.data.total).toBe(2)
      expect(
        history.body.data.list.map(({ before, after, changedBy, reason }) => ({
          before,
          after,
          changedBy,
          reason,
        })),
      ).toEqual([
        { before: '"2.5"', after: '"1.5"', changedBy: 'op-admin', reason: 'back down' },
        { before: null, after: '"2.5"', changedBy: 'op-admin', reason: 'network fees rose' },
      ])
      const audit = await auditRows('setting_update')
      expect(audit.total).toBe(3)
      expect(audit.list[2]).toMatchObject({
        operator: 'op-admin',
        targetUser: null,
        reason: 'network fees rose',
        before: '{"key":"withdrawFeeFixedUsdt","value":null}',
        after: '{"key":"withdrawFeeFixedUsdt","value":"2.5"}',
      })
      const unknown = await as('admin', 'admin/settingHistory', { key: 'noSuchThing' })
      expect(unknown.body.reason).toBe('setting_unknown')
    })
  })

  describe('members', () => {
    test('search by address prefix, referral code or nickname, with a total', async () => {
      const inviter = await registerUser(t.app)
      const child = await registerUser(t.app, inviter.userName)
      await registerUser(t.app, child.userName)
      await t.db.pool.query(`UPDATE users SET nick_name = 'Moon_Walker 100%' WHERE id = $1`, [
        inviter.id,
      ])
      const code = (
        await t.db.pool.query<{ c: string }>('SELECT referral_code AS c FROM users WHERE id = $1', [
          child.id,
        ])
      ).rows[0]!.c
      const search = async (q: string, extra: Record<string, string> = {}) =>
        (await as<Page<AdminUser>>('support', 'admin/users', { q, ...extra })).body.data

      const byPrefix = await search(inviter.userName.slice(0, 14).toUpperCase().replace('0X', '0x'))
      expect(byPrefix.list.map((u) => u.userName)).toContain(inviter.userName)
      const byCode = await search(code.toLowerCase())
      expect(byCode.list.map((u) => u.userName)).toEqual([child.userName])
      expect(byCode.total).toBe(1)
      const byNick = await search('walker 100%')
      expect(byNick.list.map((u) => u.id)).toEqual([inviter.id])
      // Wildcards are taken literally.
      expect((await search('%')).list.map((u) => u.id)).toEqual([inviter.id])
      expect((await search('moon_')).total).toBe(1)
      expect((await search('0x_')).total).toBe(0)

      const all = await search('', { pageSize: '2' })
      const count = (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM users'))
        .rows[0]!.n
      expect(all.total).toBe(count)
      expect(all.list).toHaveLength(2)
      expect(all.list[0]!.id).toBeGreaterThan(all.list[1]!.id)

      expect((await as('content', 'admin/users', { q: code })).body.reason).toBe('forbidden')
    })

    test('the tree opens one level: the member, their team and the members they invited', async () => {
      const top = await registerUser(t.app)
      const left = await registerUser(t.app, top.userName)
      const right = await registerUser(t.app, top.userName)
      await registerUser(t.app, left.userName)
      await fundAccount(t.db.pool, left.id, '12.5')
      await t.db.pool.query(
        `INSERT INTO node_holders (user_id, type, source) VALUES ($1, 1, 'granted'), ($1, 3, 'bought')`,
        [left.id],
      )
      const tree = (
        await as<AdminUserTree>('finance', 'admin/userTree', { userName: top.userName })
      ).body.data
      expect(tree.user).toMatchObject({
        userName: top.userName,
        inviter: DEMO_ROOT.userName,
        directPeople: 2,
        teamPeople: 3,
      })
      expect(tree.children.map((c) => c.userName)).toEqual([left.userName, right.userName])
      expect(tree.children[0]).toMatchObject({
        inviter: top.userName,
        directPeople: 1,
        teamPeople: 1,
        isRobot: false,
        nodes: [
          { type: 1, source: 'granted' },
          { type: 3, source: 'bought' },
        ],
        balances: { usdt: '12.5', community: '0', shareholder: '0', node: '0', split: '0' },
      })
      const paged = await as<AdminUserTree>('finance', 'admin/userTree', {
        userName: top.userName,
        pageSize: '1',
        pageNum: '2',
      })
      expect(paged.body.data.children.map((c) => c.userName)).toEqual([right.userName])
      const missing = await as('finance', 'admin/userTree', { userName: '0x' + '1'.repeat(40) })
      expect(missing.body.reason).toBe('not_registered')
    })
  })

  test('deposits: newest first, by status, hash or address, with confirmations', async () => {
    const member = await registerUser(t.app)
    await t.db.pool.query(
      `INSERT INTO chain_cursors (chain_id, block_number) VALUES ($1, 120)
       ON CONFLICT (chain_id) DO UPDATE SET block_number = 120`,
      [CHAIN_ID],
    )
    const tx = hash()
    await insertDeposit({
      userId: member.id,
      amount: '25.000001',
      status: 'credited',
      block: 101,
      txHash: tx,
    })
    await insertDeposit({ userId: member.id, amount: '3', status: 'on_chain', block: 118 })
    await insertDeposit({ userId: member.id, amount: '5', status: 'reorged', block: 119 })
    const mine = (await as<Page<AdminDeposit>>('finance', 'admin/deposits', { q: member.userName }))
      .body.data
    expect(mine.total).toBe(3)
    expect(mine.list.map((d) => [d.amount, d.status, d.confirmations, d.blockNumber])).toEqual([
      ['5', 'reorged', 0, null],
      ['3', 'on_chain', 3, '118'],
      ['25.000001', 'credited', 20, '101'],
    ])
    const byHash = (
      await as<Page<AdminDeposit>>('admin', 'admin/deposits', { q: tx.toUpperCase() })
    ).body.data
    expect(byHash.list).toEqual([
      expect.objectContaining({ txHash: tx, userName: member.userName }),
    ])
    const credited = (
      await as<Page<AdminDeposit>>('admin', 'admin/deposits', { status: 'credited' })
    ).body.data
    expect(credited.list.every((d) => d.status === 'credited')).toBe(true)
    expect(credited.total).toBe(3)
    const stranger = (
      await as<Page<AdminDeposit>>('admin', 'admin/deposits', { status: 'unattributed' })
    ).body.data
    expect(stranger.list[0]!.userName).toMatch(/^0x[0-9a-f]{40}$/)
    expect((await as('support', 'admin/deposits')).body.reason).toBe('forbidden')
  })

  test('settlement runs: newest day first, paged, in the settlement time zone', async () => {
    const runs = (await as<SettlementRuns>('finance', 'admin/settlementRuns', { pageSize: '1' }))
      .body.data
    expect(runs.utcOffsetMinutes).toBe(480)
    expect(runs.total).toBe(2)
    expect(runs.list.map((r) => r.day)).toEqual(['2026-01-02'])
  })

  test('the audit lists what operators did, newest first, by action', async () => {
    const member = await registerUser(t.app)
    await as('finance', 'admin/credit', {
      userName: member.userName,
      account: 'usdt',
      amount: '7',
      reason: 'goodwill',
      idempotencyKey: key(),
    })
    await as('support', 'admin/flagRobot', {
      userName: member.userName,
      robot: 'true',
      reason: 'scripted sign-ups',
    })
    const all = (await as<Page<AdminAuditEntry>>('admin', 'admin/audit', { pageSize: '2' })).body
      .data
    expect(all.list.map((e) => [e.action, e.operator, e.targetUser])).toEqual([
      ['flag_robot', 'op-support', member.userName],
      ['backend_recharge', 'op-finance', member.userName],
    ])
    expect(all.list[1]).toMatchObject({
      amount: '7',
      reason: 'goodwill',
      before: '{"balance":"0"}',
      after: '{"balance":"7"}',
    })
    const credits = await auditRows('backend_recharge')
    expect(credits.list.every((e) => e.action === 'backend_recharge')).toBe(true)
    expect(all.total).toBeGreaterThan(credits.total)
    expect((await as('finance', 'admin/audit')).body.reason).toBe('forbidden')
  })

  test('the ledger verifies clean', async () => {
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })
})
