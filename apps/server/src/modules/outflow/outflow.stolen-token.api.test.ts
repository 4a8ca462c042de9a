import type { OutflowTypedData, TransferResult, Withdrawal } from '@hope/api'
import { Wallet } from 'ethers'
import { describe, expect, test } from 'vitest'
import { connectChain } from '../../chain/chain.service.ts'
import {
  call,
  databaseTargets,
  fundAccount,
  keyMaker,
  newWallet,
  registerUser,
  signOutflow,
  useTestApp,
} from '../../testing/index.ts'
import { verifyLedger } from '../ledger/ledger.verify.ts'

// A thief holding only a user's session token: nothing leaves the account except to the
// user's own wallet. Every other outflow needs the wallet's EIP-712 signature of exactly its
// values, unexpired; a replayed signature moves nothing more.
describe.each(databaseTargets())('a stolen session token on $name', (target) => {
  const t = useTestApp(target, {
    chain: connectChain('http://127.0.0.1:9', 31337),
    now: () => clock,
  })
  let clock = Date.now()
  const key = keyMaker('steal')

  const usdt = async (userId: number) =>
    (
      await t.db.pool.query<{ b: string; p: string }>(
        `SELECT balance::text AS b, debits_pending::text AS p FROM ledger_accounts WHERE user_id = $1 AND kind = 'usdt'`,
        [userId],
      )
    ).rows[0]!
  const withdrawals = async (userId: number) =>
    Number(
      (await t.db.pool.query('SELECT count(*) FROM withdrawals WHERE user_id = $1', [userId]))
        .rows[0].count,
    )

  /** A funded victim, and a thief registered under the victim's invitation (a downline). */
  async function victimAndThief() {
    const victim = await registerUser(t.app)
    await fundAccount(t.db.pool, victim.id, '1000')
    const thief = await registerUser(t.app, victim.userName)
    return { victim, thief }
  }

  test('with the token alone: no withdrawal elsewhere, no transfer; the balance is untouched', async () => {
    const { victim, thief } = await victimAndThief()
    const before = await usdt(victim.id)
    const asThief = { token: victim.token, sign: false }
    const wd = await call(
      t.app,
      'userAccount/withdraw',
      { amount: '500', address: thief.userName, idempotencyKey: key() },
      asThief,
    )
    expect(wd.status).toBe(403)
    expect(wd.body.reason).toBe('outflow_signature_required')
    const tr = await call(
      t.app,
      'userAccount/transfer',
      { amount: '500', address: thief.userName, idempotencyKey: key() },
      asThief,
    )
    expect(tr.body.reason).toBe('outflow_signature_required')
    // Translated, as every refusal.
    const ko = await call(
      t.app,
      'userAccount/transfer',
      { amount: '500', address: thief.userName, idempotencyKey: key() },
      { ...asThief, lang: 'ko' },
    )
    expect(ko.body.msg).toBe('이 작업은 지갑 서명이 필요합니다. 지갑에서 서명하세요')
    expect(await usdt(victim.id)).toEqual(before)
    expect(await withdrawals(victim.id)).toBe(0)
  })

  test('the only way out with the token alone is to the user’s own wallet', async () => {
    const { victim } = await victimAndThief()
    const res = await call<'userAccount/withdraw', Withdrawal>(
      t.app,
      'userAccount/withdraw',
      { amount: '100', idempotencyKey: key() },
      { token: victim.token, sign: false },
    )
    expect(res.body.code).toBe(200)
    expect(res.body.data.address).toBe(victim.userName)
    // Named explicitly, the own wallet is the same address.
    const named = await call<'userAccount/withdraw', Withdrawal>(
      t.app,
      'userAccount/withdraw',
      { amount: '100', address: victim.wallet.address, idempotencyKey: key() },
      { token: victim.token, sign: false },
    )
    expect(named.body.code).toBe(200)
  })

  test('a signature from another wallet, or over other values, is refused and moves nothing', async () => {
    const { victim, thief } = await victimAndThief()
    const before = await usdt(victim.id)
    const params = { amount: '300', address: thief.userName, idempotencyKey: key() }
    // The thief's own wallet signs the victim's typed data.
    const byThief = await signOutflow(t.app, 'withdraw', params, victim.token, thief.wallet)
    const wrongSigner = await t.as(victim, 'userAccount/withdraw', { ...params, ...byThief })
    expect(wrongSigner.status).toBe(403)
    expect(wrongSigner.body.reason).toBe('outflow_signature_invalid')
    // The victim signed 15 USDT to the thief; the thief sends 300, or sends it elsewhere, or
    // uses a withdrawal's signature for a transfer.
    const small = { amount: '15', address: thief.userName, idempotencyKey: key() }
    const signedSmall = (await signOutflow(t.app, 'withdraw', small, victim.token))!
    for (const [path, sent] of [
      ['userAccount/withdraw', { ...small, amount: '300' }],
      ['userAccount/withdraw', { ...small, address: newWallet().address }],
      ['userAccount/withdraw', { ...small, idempotencyKey: key() }],
      ['userAccount/transfer', small],
    ] as const) {
      const res = await call(t.app, path, { ...sent, ...signedSmall }, { token: victim.token })
      expect(res.body.reason, `${path} ${JSON.stringify(sent)}`).toBe('outflow_signature_invalid')
    }
    // A deadline later than the server ever writes (a signature to keep for ever).
    const res = await t.as(victim, 'userAccount/withdraw', {
      ...small,
      ...signedSmall,
      deadline: String(signedSmall.deadline + 86_400),
    })
    expect(res.body.reason).toBe('outflow_signature_invalid')
    expect(await usdt(victim.id)).toEqual(before)
    expect(await withdrawals(victim.id)).toBe(0)
  })

  test('an expired signature is refused; the owner’s fresh one moves the money once', async () => {
    const { victim, thief } = await victimAndThief()
    const params = { amount: '200', address: thief.userName, idempotencyKey: key() }
    const signed = (await signOutflow(t.app, 'transfer', params, victim.token))!
    clock += 11 * 60_000
    const late = await t.as(victim, 'userAccount/transfer', { ...params, ...signed })
    expect(late.body.reason).toBe('outflow_signature_expired')
    clock = Date.now()
    const fresh = (await signOutflow(t.app, 'transfer', params, victim.token))!
    const first = await t.as<'userAccount/transfer', TransferResult>(
      victim,
      'userAccount/transfer',
      { ...params, ...fresh },
    )
    expect(first.body.data).toMatchObject({ amount: '200', replayed: false })
    // The same signed request again (a thief who saw it on the wire): nothing moves again.
    const again = await t.as<'userAccount/transfer', TransferResult>(
      victim,
      'userAccount/transfer',
      { ...params, ...fresh },
    )
    expect(again.body.data).toMatchObject({ replayed: true })
    expect((await usdt(victim.id)).b).toBe('800.000000000000000000')
    expect((await usdt(thief.id)).b).toBe('200.000000000000000000')
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })

  test('a signature made with ethers (eth_signTypedData_v4 from another library) is accepted', async () => {
    const wallet = Wallet.createRandom()
    const { victim } = await victimAndThief()
    // A user whose wallet is an ethers one: signed in with ethers too.
    const login = await call<'user/loginMessage', { message: string }>(t.app, 'user/loginMessage', {
      username: wallet.address,
    })
    const message = login.body.data.message
    const reg = await call<'user/register', { token: string; id: number }>(
      t.app,
      'user/register',
      {
        username: wallet.address,
        message,
        signature: await wallet.signMessage(message),
        pusername: victim.userName,
      },
      { ip: '10.251.0.1' },
    )
    expect(reg.body.code).toBe(200)
    await fundAccount(t.db.pool, reg.body.data.id, '50')
    const params = { amount: '20', address: newWallet().address, idempotencyKey: key() }
    const typed = await call<'userAccount/outflowTypedData', OutflowTypedData>(
      t.app,
      'userAccount/outflowTypedData',
      { kind: 'withdraw', ...params },
      { token: reg.body.data.token },
    )
    const { domain, types, message: values } = typed.body.data
    const signature = await wallet.signTypedData(domain, { Outflow: [...types.Outflow] }, values)
    const res = await call<'userAccount/withdraw', Withdrawal>(
      t.app,
      'userAccount/withdraw',
      { ...params, signature, deadline: String(values.deadline) },
      { token: reg.body.data.token },
    )
    expect(res.body.code).toBe(200)
    expect(res.body.data.address).toBe(params.address.toLowerCase())
  })

  test('with outflowSignature = all, a withdrawal to the own wallet needs the signature too', async () => {
    await t.app.services.settings.set('outflowSignature', 'all', 'test')
    try {
      const { victim } = await victimAndThief()
      const params = { amount: '50', idempotencyKey: key() }
      const bare = await call(t.app, 'userAccount/withdraw', params, {
        token: victim.token,
        sign: false,
      })
      expect(bare.body.reason).toBe('outflow_signature_required')
      const signed = await t.as(victim, 'userAccount/withdraw', params)
      expect(signed.body.code).toBe(200)
    } finally {
      await t.app.services.settings.set('outflowSignature', 'others', 'test')
    }
  })
})
