import type { LoginMessage, LoginResult } from '@hope/api'
import { afterEach, describe, expect, test } from 'vitest'
import { SETTING_DEFAULTS } from '../settings/settings.rules.ts'
import {
  DEMO_ROOT,
  call,
  databaseTargets,
  newWallet,
  signLogin,
  useTestApp,
  ipMaker,
} from '../../testing/index.ts'

describe.each(databaseTargets())('sign-in nonces are bounded on $name', (target) => {
  const t = useTestApp(target)
  const freshIp = ipMaker(7)
  const settings = () => t.app.services.settings

  afterEach(async () => {
    for (const key of [
      'lookupRateLimitPerIp',
      'loginNoncesPerAddress',
      'loginNoncesPerIp',
      'loginNoncesMax',
    ] as const)
      await settings().set(key, SETTING_DEFAULTS[key], 'test')
    await t.db.pool.query('DELETE FROM login_nonces')
  })

  const ask = (address: string, ip = freshIp()) =>
    call<'user/loginMessage', LoginMessage>(
      t.app,
      'user/loginMessage',
      { username: address },
      { ip },
    )
  const rows = async (where = 'true', params: unknown[] = []) =>
    (
      await t.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM login_nonces WHERE ${where}`,
        params,
      )
    ).rows[0]!.n
  const login = async (wallet: ReturnType<typeof newWallet>, message: string) =>
    call<'user/logining', LoginResult>(
      t.app,
      'user/logining',
      { username: wallet.address, message, signature: await wallet.signMessage({ message }) },
      { ip: freshIp() },
    )

  test('400 addresses asked from one client keep loginNoncesPerIp rows; others are still served', async () => {
    // Past the per-IP look-up limit too, to show the nonces' own bound.
    await settings().set('lookupRateLimitPerIp', 100_000, 'test')
    const ip = '10.66.0.1'
    const answers = []
    for (let i = 0; i < 400; i++) answers.push(await ask(newWallet().address, ip))
    const cap = SETTING_DEFAULTS.loginNoncesPerIp
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(cap)
    expect(new Set(answers.slice(cap).map((a) => a.body.reason))).toEqual(new Set(['rate_limited']))
    expect(await rows('ip = $1', [ip])).toBe(cap)
    expect(await rows()).toBe(cap)
    // Another client is not locked out by this one.
    expect((await ask(newWallet().address)).body.code).toBe(200)
  })

  test('an address keeps its newest loginNoncesPerAddress; the newest still signs in', async () => {
    const wallet = newWallet()
    await call(
      t.app,
      'user/register',
      { ...(await signLogin(wallet)), invitationCode: DEMO_ROOT.referralCode },
      { ip: freshIp() },
    )
    const messages: string[] = []
    for (let i = 0; i < 8; i++) messages.push((await ask(wallet.address)).body.data.message)
    expect(await rows('address = $1', [wallet.address.toLowerCase()])).toBe(
      SETTING_DEFAULTS.loginNoncesPerAddress,
    )
    // The oldest was dropped: its message asks for a new one.
    expect((await login(wallet, messages[0]!)).body.reason).toBe('signature_expired')
    expect((await login(wallet, messages.at(-1)!)).body.code).toBe(200)
  })

  test('at loginNoncesMax new nonces are refused and the unexpired ones stay', async () => {
    await settings().set('loginNoncesMax', 100, 'test')
    for (let i = 0; i < 2; i++)
      for (let j = 0; j < 50; j++) await ask(newWallet().address, `10.67.${i}.1`)
    expect(await rows()).toBe(100)
    const refused = await ask(newWallet().address)
    expect(refused.status).toBe(429)
    expect(refused.body.reason).toBe('rate_limited')
    expect(await rows()).toBe(100)
  })

  test('expired nonces are pruned as new ones are asked, a bounded number per call', async () => {
    await t.db.pool.query(
      `INSERT INTO login_nonces (nonce, address, ip, expires_at)
       SELECT 'old' || i, '0x' || lpad(to_hex(i), 40, '0'), '10.68.0.1', now() - interval '1 minute'
         FROM generate_series(1, 150) i`,
    )
    await ask(newWallet().address)
    expect(await rows('expires_at <= now()')).toBe(50)
    await ask(newWallet().address)
    expect(await rows('expires_at <= now()')).toBe(0)
    expect(await rows()).toBe(2)
  })

  test('a member still signs in normally with the message handed out', async () => {
    const wallet = newWallet()
    const first = await ask(wallet.address)
    const registered = await call<'user/register', LoginResult>(
      t.app,
      'user/register',
      {
        username: wallet.address,
        message: first.body.data.message,
        signature: await wallet.signMessage({ message: first.body.data.message }),
        invitationCode: DEMO_ROOT.referralCode,
      },
      { ip: freshIp() },
    )
    expect(registered.body.code).toBe(200)
    const again = await ask(wallet.address)
    const res = await login(wallet, again.body.data.message)
    expect(res.body.code).toBe(200)
    expect(res.body.data.token).toBeTruthy()
  })
})
