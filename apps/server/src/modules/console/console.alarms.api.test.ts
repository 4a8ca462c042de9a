import { randomBytes } from 'node:crypto'
import type {
  AdminAuditEntry,
  AdminDashboard,
  AdminResolvedAlarm,
  OperatorRole,
  Page,
  RoutePath,
} from '@hope/api'
import { beforeAll, describe, expect, test } from 'vitest'
import { raiseAlarm, resolveAlarm } from '../alarm/alarm.service.ts'
import {
  call,
  databaseTargets,
  newOperator,
  registerUser,
  useTestApp,
} from '../../testing/index.ts'

const CHAIN_ID = 31337

describe.each(databaseTargets())('operators resolve alarms on $name', (target) => {
  const t = useTestApp(target)
  const token: Record<OperatorRole, string> = { admin: '', finance: '', content: '', support: '' }

  const as = <T>(role: OperatorRole, path: RoutePath, params: Record<string, unknown> = {}) =>
    call<RoutePath, T>(t.app, path, params, { token: token[role], lang: 'en' })
  const resolve = (role: OperatorRole, id: number | string, reason: string) =>
    as<AdminResolvedAlarm>(role, 'admin/resolveAlarm', { id: String(id), reason })

  /** A finding of the chain scan, keyed by its transaction and log as the scan keys it. */
  const chainFinding = (kind = 'payout_unknown') => {
    const txHash = `0x${randomBytes(32).toString('hex')}`
    return {
      key: `chain-scan:${CHAIN_ID}:${txHash}:0`,
      kind,
      message: `The payout vault paid 3.5 USDT in ${txHash}, which no withdrawal has`,
      detail: { txHash, amount: '3.5' },
    }
  }
  /** Raises the alarm and answers its id. */
  const raise = async (alarm: ReturnType<typeof chainFinding>) => {
    expect(await raiseAlarm(t.db.pool, alarm)).toBe(true)
    const row = await t.db.pool.query<{ id: number }>(
      'SELECT id::int FROM operator_alarms WHERE key = $1',
      [alarm.key],
    )
    return row.rows[0]!.id
  }
  const openIds = async () =>
    (await as<AdminDashboard>('support', 'admin/dashboard')).body.data.alarms.map((a) => a.id)
  const stored = async (id: number) =>
    (
      await t.db.pool.query<{
        resolved: boolean
        by: string | null
        resolution: string | null
      }>(
        `SELECT a.resolved_at IS NOT NULL AS resolved, o.username AS by, a.resolution
         FROM operator_alarms a LEFT JOIN operators o ON o.id = a.resolved_by WHERE a.id = $1`,
        [id],
      )
    ).rows[0]
  const auditRows = async () =>
    (
      await as<Page<AdminAuditEntry>>('admin', 'admin/audit', {
        action: 'alarm_resolve',
        pageSize: '100',
      })
    ).body.data.list
  const auditRowsOf = async (id: number) =>
    (await auditRows()).filter((e) => (JSON.parse(e.before ?? '{}') as { id?: number }).id === id)

  beforeAll(async () => {
    for (const role of ['admin', 'finance', 'content', 'support'] as const)
      token[role] = await newOperator(t.app, `op-${role}`, role, `${role}-password-1`)
  })

  test('finance closes an alarm with a reason: recorded, audited, gone from the dashboard', async () => {
    const finding = chainFinding()
    const id = await raise(finding)
    const other = await raise(chainFinding('unexplained_outflow'))
    expect(await openIds()).toEqual([other, id])

    const res = await resolve('finance', id, '  test payout sent by the vault owner  ')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      id,
      kind: 'payout_unknown',
      message: finding.message,
      detail: finding.detail,
      raisedAt: expect.any(String),
      resolvedAt: expect.any(String),
      resolvedBy: 'op-finance',
      resolution: 'test payout sent by the vault owner',
    })
    expect(await openIds()).toEqual([other])
    expect(await stored(id)).toEqual({
      resolved: true,
      by: 'op-finance',
      resolution: 'test payout sent by the vault owner',
    })
    const [entry, ...more] = await auditRowsOf(id)
    expect(more).toEqual([])
    expect(entry).toMatchObject({
      operator: 'op-finance',
      action: 'alarm_resolve',
      targetUser: null,
      amount: null,
      reason: 'test payout sent by the vault owner',
    })
    expect(JSON.parse(entry!.before!)).toEqual({
      id,
      kind: 'payout_unknown',
      message: finding.message,
      detail: finding.detail,
    })
    expect(JSON.parse(entry!.after!)).toEqual({ id, resolvedAt: res.body.data.resolvedAt })
    expect((await resolve('admin', other, 'moved to cold storage by hand')).status).toBe(200)
  })

  test('admin and finance may close one; content and support are refused and change nothing', async () => {
    const id = await raise(chainFinding('payout_mismatch'))
    for (const role of ['content', 'support'] as const) {
      const res = await resolve(role, id, 'not mine to close')
      expect([res.status, res.body.reason], role).toEqual([403, 'forbidden'])
    }
    expect(await stored(id)).toEqual({ resolved: false, by: null, resolution: null })
    expect(await openIds()).toContain(id)
    expect(await auditRowsOf(id)).toEqual([])

    expect((await resolve('admin', id, 'the withdrawal was corrected')).body.data).toMatchObject({
      id,
      resolvedBy: 'op-admin',
    })
    expect(await openIds()).not.toContain(id)
  })

  test('no session is 401 before anything else; a user token is no operator', async () => {
    const id = await raise(chainFinding())
    const anonymous = await call(t.app, 'admin/resolveAlarm', { id: String(id), reason: 'x' })
    expect([anonymous.status, anonymous.body.reason]).toEqual([401, 'not_logged_in'])
    const bare = await call(t.app, 'admin/resolveAlarm', {})
    expect([bare.status, bare.body.reason]).toEqual([401, 'not_logged_in'])
    const user = await registerUser(t.app)
    const asUser = await t.as(user, 'admin/resolveAlarm', { id: String(id), reason: 'x' })
    expect([asUser.status, asUser.body.reason]).toEqual([401, 'session_expired'])
    expect(await openIds()).toContain(id)
    await resolve('admin', id, 'cleanup')
  })

  test('an id that is no number or a reason blank or too long is a 400', async () => {
    const id = await raise(chainFinding())
    for (const params of [
      {},
      { id: String(id) },
      { id: String(id), reason: '   ' },
      { id: String(id), reason: 'x'.repeat(201) },
      { reason: 'no id' },
      { id: '0', reason: 'zero' },
      { id: '-1', reason: 'negative' },
      { id: 'abc', reason: 'word' },
      { id: '1'.repeat(10), reason: 'too many digits' },
    ]) {
      const res = await as('finance', 'admin/resolveAlarm', params)
      expect([res.status, res.body.reason], JSON.stringify(params).slice(0, 60)).toEqual([
        400,
        'invalid_params',
      ])
    }
    expect(await stored(id)).toEqual({ resolved: false, by: null, resolution: null })
    expect((await resolve('finance', id, 'x'.repeat(200))).status).toBe(200)
  })

  test('an id no alarm has is a 404', async () => {
    const res = await resolve('finance', 999_999_999, 'nothing there')
    expect([res.status, res.body.reason]).toEqual([404, 'not_found'])
  })

  test('an alarm closed already is a 409, the same request repeated included, and keeps its first close', async () => {
    const id = await raise(chainFinding())
    const first = await resolve('finance', id, 'booked by hand')
    expect(first.status).toBe(200)

    const replay = await resolve('finance', id, 'booked by hand')
    expect([replay.status, replay.body.reason]).toEqual([409, 'already_resolved'])
    const other = await resolve('admin', id, 'a second opinion')
    expect([other.status, other.body.reason]).toEqual([409, 'already_resolved'])
    expect(await stored(id)).toEqual({
      resolved: true,
      by: 'op-finance',
      resolution: 'booked by hand',
    })
    expect(await auditRowsOf(id)).toHaveLength(1)

    // One a job closed when its condition ended is no operator's to close again.
    const nonce = { ...chainFinding('payout_nonce_taken'), key: `nonce-taken:${id}` }
    const byJob = await raise(nonce)
    await resolveAlarm(t.db.pool, nonce.key)
    const late = await resolve('finance', byJob, 'too late')
    expect([late.status, late.body.reason]).toEqual([409, 'already_resolved'])
    expect(await stored(byJob)).toEqual({ resolved: true, by: null, resolution: null })
  })

  test('two operators closing one alarm at once: one closes it, the other hears 409', async () => {
    const id = await raise(chainFinding())
    const answers = await Promise.all([
      resolve('finance', id, 'first'),
      resolve('admin', id, 'second'),
    ])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
    expect(answers.find((a) => a.status === 409)?.body.reason).toBe('already_resolved')
    expect(await auditRowsOf(id)).toHaveLength(1)
  })

  test('once closed, the same finding stays closed and a new finding of the scan shows', async () => {
    const finding = chainFinding()
    const id = await raise(finding)
    await resolve('finance', id, 'explained')
    // The scan reads the same event again (a restart from an older checkpoint): nothing new.
    expect(await raiseAlarm(t.db.pool, finding)).toBe(false)
    expect(await openIds()).not.toContain(id)
    // Another payout the books do not know is a new alarm, listed again.
    const next = await raise(chainFinding())
    expect(await openIds()).toEqual([next])
    await resolve('finance', next, 'explained too')
    expect(await openIds()).toEqual([])
  })
})
