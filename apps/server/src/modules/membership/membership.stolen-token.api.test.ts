import type { OutflowTypedData, PurchaseResult } from '@hope/api'
import { describe, expect, test } from 'vitest'
import { connectChain } from '../../chain/chain.service.ts'
import {
  call,
  databaseTargets,
  fundAccount,
  keyMaker,
  registerUser,
  signOutflow,
  useTestApp,
} from '../../testing/index.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'

// A thief holding only a user's session token registers under the user (a downline) and has
// the user pay the thief's membership: paying for another member is an outflow, so nothing
// moves without the user's wallet signing that price, for that member, under that key.
describe.each(databaseTargets())('game/activate with a stolen session token on $name', (target) => {
  const t = useTestApp(target, {
    chain: connectChain('http://127.0.0.1:9', 31337),
    now: () => clock,
  })
  let clock = Date.now()
  const key = keyMaker('steal-act')

  /** The payer's USDT and the member's split HOPE and level, as the books hold them. */
  const standing = async (payerId: number, memberId: number) => {
    const res = await t.db.pool.query<{ usdt: string; split: string; level: number }>(
      `SELECT (SELECT balance::text FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt') AS usdt,
              (SELECT balance::text FROM ledger_accounts WHERE user_id = $2 AND kind = 'split') AS split,
              (SELECT level FROM users WHERE id = $2) AS level`,
      [payerId, memberId],
    )
    return res.rows[0]!
  }

  /** A victim with 10,000 USDT, and a thief registered under the victim's address. */
  async function victimAndThief() {
    const victim = await registerUser(t.app)
    await fundAccount(t.db.pool, victim.id, '10000')
    const thief = await registerUser(t.app, victim.userName)
    return { victim, thief }
  }

  test('with the token alone the victim pays for nobody: refused, nothing moves', async () => {
    const { victim, thief } = await victimAndThief()
    const before = await standing(victim.id, thief.id)
    const params = { address: thief.userName, level: '7', idempotencyKey: key() }
    const bare = await call(t.app, 'game/activate', params, { token: victim.token, sign: false })
    expect(bare.status).toBe(403)
    expect(bare.body.reason).toBe('outflow_signature_required')
    // The spec's client sends every field, the empty ones meaning "not given".
    const empty = await call(
      t.app,
      'game/activate',
      { ...params, location: '', signature: '', deadline: '' },
      { token: victim.token, sign: false },
    )
    expect(empty.body.reason).toBe('outflow_signature_required')
    // The operators' stricter policy changes nothing here.
    await t.app.services.settings.set('outflowSignature', 'all', 'test')
    try {
      const all = await call(t.app, 'game/activate', params, { token: victim.token, sign: false })
      expect(all.body.reason).toBe('outflow_signature_required')
    } finally {
      await t.app.services.settings.set('outflowSignature', 'others', 'test')
    }
    expect(await standing(victim.id, thief.id)).toEqual(before)
  })

  test('the typed data names the action, payer, member, price in USDT, key and expiry', async () => {
    const { victim, thief } = await victimAndThief()
    const idempotencyKey = key()
    const typed = await t.as<'userAccount/outflowTypedData', OutflowTypedData>(
      victim,
      'userAccount/outflowTypedData',
      { kind: 'activate', address: thief.userName, level: '2', amount: '', idempotencyKey },
    )
    expect(typed.body.data.message).toEqual({
      action: 'activate',
      from: victim.userName,
      to: thief.userName,
      amount: '300',
      currency: 'USDT',
      idempotencyKey,
      deadline: Math.floor(clock / 1000) + 600,
    })
    // No price, and so no member's level, for someone outside the own downline.
    const outside = await t.as(thief, 'userAccount/outflowTypedData', {
      kind: 'activate',
      address: victim.userName,
      level: '2',
      idempotencyKey,
    })
    expect(outside.body.reason).toBe('not_downline')
  })

  test('a signature by another wallet, or over another price, member, key or action, is refused', async () => {
    const { victim, thief } = await victimAndThief()
    const other = await registerUser(t.app, victim.userName)
    const before = await standing(victim.id, thief.id)
    const params = { address: thief.userName, level: '1', idempotencyKey: key() }
    // The thief's own wallet signs the victim's typed data.
    const byThief = await signOutflow(t.app, 'activate', params, victim.token, thief.wallet)
    const wrongSigner = await t.as(victim, 'game/activate', { ...params, ...byThief })
    expect(wrongSigner.status).toBe(403)
    expect(wrongSigner.body.reason).toBe('outflow_signature_invalid')
    // The victim signed level 1 (100 USDT) for the thief; the thief asks for level 7
    // (10,000 USDT), for another member, under another key, or with a deadline to keep.
    const signed = (await signOutflow(t.app, 'activate', params, victim.token))!
    for (const sent of [
      { ...params, level: '7' },
      { ...params, address: other.userName },
      { ...params, idempotencyKey: key() },
      { ...params, deadline: String(signed.deadline + 86_400) },
    ]) {
      const res = await t.as(victim, 'game/activate', { ...signed, ...sent })
      expect(res.body.reason, JSON.stringify(sent)).toBe('outflow_signature_invalid')
    }
    // A transfer the victim signed of the same 100 USDT to the thief under the same key.
    const transfer = (await signOutflow(
      t.app,
      'transfer',
      { address: thief.userName, amount: '100', idempotencyKey: params.idempotencyKey },
      victim.token,
    ))!
    const asTransfer = await t.as(victim, 'game/activate', { ...params, ...transfer })
    expect(asTransfer.body.reason).toBe('outflow_signature_invalid')
    expect(await standing(victim.id, thief.id)).toEqual(before)
  })

  test('an expired signature is refused; the genuine one activates once, a replay moves nothing more', async () => {
    const { victim, thief } = await victimAndThief()
    const params = { address: thief.userName, level: '2', location: '3', idempotencyKey: key() }
    const late = (await signOutflow(t.app, 'activate', params, victim.token))!
    clock += 11 * 60_000
    const expired = await t.as(victim, 'game/activate', { ...params, ...late })
    expect(expired.body.reason).toBe('outflow_signature_expired')
    clock = Date.now()

    const signed = (await signOutflow(t.app, 'activate', params, victim.token))!
    const first = await t.as<'game/activate', PurchaseResult>(victim, 'game/activate', {
      ...params,
      ...signed,
    })
    expect(first.body.data, JSON.stringify(first.body)).toMatchObject({
      paid: '300',
      level: 2,
      replayed: false,
    })
    const paid = await standing(victim.id, thief.id)
    expect(paid.usdt).toBe('9700.000000000000000000')
    expect(paid.level).toBe(2)
    expect(Number(paid.split)).toBeGreaterThan(0)
    // The same signed request again (seen on the wire): answered as before, nothing moves.
    const again = await t.as<'game/activate', PurchaseResult>(victim, 'game/activate', {
      ...params,
      ...signed,
    })
    expect(again.body.data).toMatchObject({ paid: '300', replayed: true })
    // The signature used again under a new key: nothing left to pay at that level, and the
    // next level up is another price.
    const sameLevel = { ...params, idempotencyKey: key() }
    const nextLevel = { ...params, level: '3', idempotencyKey: key() }
    for (const [sent, reason] of [
      [sameLevel, 'not_an_upgrade'],
      [nextLevel, 'outflow_signature_invalid'],
    ] as const) {
      const res = await t.as(victim, 'game/activate', { ...sent, ...signed })
      expect(res.body.reason, JSON.stringify(sent)).toBe(reason)
    }
    expect(await standing(victim.id, thief.id)).toEqual(paid)
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('a price that moved after the wallet signed it is not charged', async () => {
    const { victim, thief } = await victimAndThief()
    const params = { address: thief.userName, level: '2', idempotencyKey: key() }
    // Signed at 300 USDT (level 0 to 2); then another payment brings the member to level 1.
    const signed = (await signOutflow(t.app, 'activate', params, victim.token))!
    const level1 = await t.as(victim, 'game/activate', {
      address: thief.userName,
      level: '1',
      idempotencyKey: key(),
    })
    expect(level1.body.code).toBe(200)
    const before = await standing(victim.id, thief.id)
    const res = await t.as(victim, 'game/activate', { ...params, ...signed })
    expect(res.body.reason).toBe('outflow_signature_invalid')
    expect(await standing(victim.id, thief.id)).toEqual(before)
  })

  test('activating oneself is no activation of another: refused as outside the downline', async () => {
    const { victim } = await victimAndThief()
    const res = await call(
      t.app,
      'game/activate',
      { address: victim.userName, level: '1', idempotencyKey: key() },
      { token: victim.token, sign: false },
    )
    expect(res.body.reason).toBe('not_downline')
  })
})
