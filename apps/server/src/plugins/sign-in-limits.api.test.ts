import { describe, expect, test } from 'vitest'
import { createPostgresLimitStore } from '../lib/limit-store.ts'
import { hotp, totpStep } from '../lib/totp.ts'
import {
  DEMO_ROOT,
  call,
  databaseTargets,
  newWallet,
  signLogin,
  useTestApp,
  ipMaker,
} from '../testing/index.ts'

describe.each(databaseTargets())('sign-in limits on $name', (target) => {
  let clock = Date.now()
  // The external database's run counts in PostgreSQL, as several processes would.
  const t = useTestApp(target, (db) => ({
    now: () => clock,
    ...(target.name === 'TEST_DATABASE_URL' ? { limits: createPostgresLimitStore(db.pool) } : {}),
  }))
  const freshIp = ipMaker(90)

  async function registered() {
    const wallet = newWallet()
    const res = await call(
      t.app,
      'user/register',
      { ...(await signLogin(wallet, clock)), invitationCode: DEMO_ROOT.referralCode },
      { ip: freshIp() },
    )
    expect(res.status).toBe(200)
    return wallet
  }

  /** A login for `victim` signed by someone else's key. */
  async function forged(victim: `0x${string}`) {
    const pair = await signLogin(newWallet(), clock)
    return { ...pair, username: victim }
  }

  test("a burst of forged logins for someone's address never refuses the owner's signature", async () => {
    const owner = await registered()
    const answers: { status: number; reason?: string; retryAfter?: unknown }[] = []
    // Eleven from eleven addresses, then five more from one: past the address's limit of ten.
    for (let i = 0; i < 16; i++) {
      const res = await call(t.app, 'user/logining', await forged(owner.address), {
        ip: i < 11 ? freshIp() : '10.91.0.1',
      })
      answers.push({
        status: res.status,
        reason: res.body.reason,
        retryAfter: res.headers['retry-after'],
      })
    }
    expect(answers.slice(0, 10).every((a) => a.reason === 'signature_invalid')).toBe(true)
    expect(answers.slice(10).every((a) => a.reason === 'rate_limited')).toBe(true)
    const retry = Number(answers.at(-1)!.retryAfter)
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(60)

    // The owner, from any IP, at once: the address's count holds failures only.
    const mine = await call(t.app, 'user/logining', await signLogin(owner, clock), {
      ip: freshIp(),
    })
    expect(mine.status).toBe(200)
    const again = await call(t.app, 'user/logining', await signLogin(owner, clock), {
      ip: '10.91.0.1',
    })
    expect(again.status).toBe(200)
  })

  test('Retry-After is the real time left, and the count starts anew after it', async () => {
    const owner = await registered()
    const ip = freshIp()
    for (let i = 0; i < 10; i++)
      await call(t.app, 'user/logining', await forged(owner.address), { ip })
    const first = await call(t.app, 'user/logining', await forged(owner.address), { ip })
    expect(first.body.reason).toBe('rate_limited')
    const before = Number(first.headers['retry-after'])
    clock += 20_000
    const later = await call(t.app, 'user/logining', await forged(owner.address), { ip })
    expect(later.body.reason).toBe('rate_limited')
    expect(Number(later.headers['retry-after'])).toBe(before - 20)
    clock += before * 1000
    const anew = await call(t.app, 'user/logining', await forged(owner.address), { ip })
    expect(anew.body.reason).toBe('signature_invalid')
  })

  test('every attempt from one IP counts against it, valid ones included', async () => {
    const owner = await registered()
    const ip = freshIp()
    let limited = null
    for (let i = 0; i < 61 && !limited; i++) {
      const res = await call(t.app, 'user/logining', await signLogin(owner, clock), { ip })
      if (res.status === 429) limited = res
    }
    expect(limited?.body.reason).toBe('rate_limited')
    // Another IP is not affected.
    expect(
      (await call(t.app, 'user/logining', await signLogin(owner, clock), { ip: freshIp() })).status,
    ).toBe(200)
    clock += 61_000
  })

  test('address look-ups are limited per IP a minute; another IP and the next minute answer', async () => {
    const ip = freshIp()
    const lookup = (from: string) =>
      call(t.app, 'user/getUserInfoByName', { userName: DEMO_ROOT.userName }, { ip: from })
    const limit = (await t.app.services.settings.get()).lookupRateLimitPerIp
    for (let i = 0; i < limit; i++) expect((await lookup(ip)).body.code).toBe(200)
    const refused = await lookup(ip)
    expect(refused.body).toMatchObject({ code: 429, reason: 'rate_limited' })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect((await lookup(freshIp())).body.code).toBe(200)
    clock += 60_000
    expect((await lookup(ip)).body.code).toBe(200)
  })

  describe('operators', () => {
    const code = (secret: Buffer, offset = 0) => hotp(secret, totpStep(Date.now()) + BigInt(offset))

    test("an attacker's burst slows the attacker with a growing wait; the right password and code from another IP sign in", async () => {
      const op = await t.app.services.operators.create('limit-owner', 'owner-password-1', 'finance')
      const attacker = freshIp()
      const guess = () =>
        call(
          t.app,
          'admin/login',
          { username: 'limit-owner', password: 'guess', code: '000000' },
          { ip: attacker },
        )
      for (let i = 0; i < 3; i++) expect((await guess()).body.reason).toBe('operator_login_failed')
      const waits: number[] = []
      for (let i = 0; i < 4; i++) {
        const limited = await guess()
        expect(limited.body.reason).toBe('rate_limited')
        const wait = Number(limited.headers['retry-after'])
        waits.push(wait)
        // Waited out: the next guess is checked, fails, and the wait doubles.
        clock += wait * 1000
        expect((await guess()).body.reason).toBe('operator_login_failed')
      }
      expect(waits).toEqual([1, 2, 4, 8])

      const owner = await call(
        t.app,
        'admin/login',
        { username: 'limit-owner', password: 'owner-password-1', code: code(op.totpSecret) },
        { ip: freshIp() },
      )
      expect(owner.status).toBe(200)
    })

    test("failures from 20 other IPs never slow the operator's own typo from a new IP", async () => {
      const op = await t.app.services.operators.create('limit-spread', 'spread-password-1', 'admin')
      const login = (password: string, ip: string, offset = 0) =>
        call(
          t.app,
          'admin/login',
          { username: 'limit-spread', password, code: code(op.totpSecret, offset) },
          { ip },
        )
      const ips = Array.from({ length: 20 }, freshIp)
      for (const ip of ips)
        expect((await login('guess', ip)).body.reason).toBe('operator_login_failed')
      // An IP that failed once is checked again, not made to wait for the others' failures.
      expect((await login('guess', ips[0]!)).body.reason).toBe('operator_login_failed')
      const mine = freshIp()
      const typo = await login('spread-password-x', mine)
      expect(typo.body.reason).toBe('operator_login_failed')
      expect(typo.headers['retry-after']).toBeUndefined()
      expect((await login('spread-password-1', mine, 1)).status).toBe(200)
    })
  })
})
