import { REASON_MESSAGES, type LoginResult, type PublicUser, type UserInfo } from '@hope/api'
import { describe, expect, test } from 'vitest'
import {
  DEMO_ROOT,
  call,
  databaseTargets,
  newWallet,
  signLogin,
  useTestApp,
  ipMaker,
} from '../../testing/index.ts'

describe.each(databaseTargets())('user API on $name', (target) => {
  const t = useTestApp(target)
  const ip = ipMaker(1)

  async function register(
    extra: Record<string, unknown> = { invitationCode: DEMO_ROOT.referralCode },
  ) {
    const wallet = newWallet()
    const pair = await signLogin(wallet)
    const res = await call<'user/register', LoginResult>(
      t.app,
      'user/register',
      { ...pair, ...extra },
      { ip: ip() },
    )
    return { wallet, pair, res }
  }

  describe('register', () => {
    test('with the root invitation code returns a token and the user info', async () => {
      const { wallet, res } = await register({
        invitationCode: DEMO_ROOT.referralCode.toLowerCase(),
        location: '2',
      })
      expect(res.status).toBe(200)
      expect(res.body.code).toBe(200)
      const data = res.body.data
      expect(data.userName).toBe(wallet.address.toLowerCase())
      expect(data.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(data.location).toBe(2)
      expect(data.level).toBe(0)
      expect(data.isRobot).toBe(false)
      expect(data.referralCode).toMatch(/^[A-Z2-9]{8}$/)
      expect(data.invitationLink).toBe(`http://hope.test/#/invite?pusername=${data.userName}`)
      const row = await t.db.pool.query('SELECT inviter_id FROM users WHERE user_name = $1', [
        data.userName,
      ])
      const root = await t.db.pool.query('SELECT id FROM users WHERE user_name = $1', [
        DEMO_ROOT.userName,
      ])
      expect(row.rows[0].inviter_id).toBe(root.rows[0].id)
    })

    test('under an inviter named by pusername', async () => {
      const inviter = await register()
      const { res } = await register({ pusername: inviter.wallet.address })
      expect(res.body.code).toBe(200)
      const row = await t.db.pool.query(
        'SELECT i.user_name FROM users u JOIN users i ON i.id = u.inviter_id WHERE u.user_name = $1',
        [res.body.data.userName],
      )
      expect(row.rows[0].user_name).toBe(inviter.wallet.address.toLowerCase())
    })

    test('refuses without an inviter, with an unknown code or inviter, and twice for one address', async () => {
      expect((await register({})).res.body.reason).toBe('invitation_code_required')
      const unknownCode = (await register({ invitationCode: 'NOPE1234' })).res.body
      expect(unknownCode.reason).toBe('invitation_code_unknown')
      expect(unknownCode.msg).toBe(REASON_MESSAGES.invitation_code_unknown.zhcn)
      expect((await register({ pusername: newWallet().address })).res.body.reason).toBe(
        'inviter_not_found',
      )
      const first = await register()
      const again = await call(
        t.app,
        'user/register',
        { ...(await signLogin(first.wallet)), invitationCode: DEMO_ROOT.referralCode },
        { ip: ip() },
      )
      expect(again.status).toBe(409)
      expect(again.body.reason).toBe('already_registered')
    })

    test('creates nothing when the signature is not the address owner', async () => {
      const owner = newWallet()
      const pair = await signLogin(newWallet())
      const res = await call(
        t.app,
        'user/register',
        { ...pair, username: owner.address, invitationCode: DEMO_ROOT.referralCode },
        { ip: ip() },
      )
      expect(res.body.reason).toBe('signature_invalid')
      const count = await t.db.pool.query('SELECT count(*) FROM users WHERE user_name = $1', [
        owner.address.toLowerCase(),
      ])
      expect(count.rows[0].count).toBe('0')
    })
  })

  describe('registered check', () => {
    test('answers the public profile of a registered address, any case', async () => {
      const res = await call<'user/getUserInfoByName', PublicUser>(
        t.app,
        'user/getUserInfoByName',
        {
          userName: DEMO_ROOT.userName.toUpperCase().replace('0X', '0x'),
        },
      )
      expect(res.body.data).toEqual({ userName: DEMO_ROOT.userName, nickName: 'HOPE', image: '' })
    })
    test('is 404 not_registered for an unknown address', async () => {
      const res = await call(t.app, 'user/getUserInfoByName', { userName: newWallet().address })
      expect(res.status).toBe(404)
      expect(res.body.reason).toBe('not_registered')
    })
    test("the app's lookup answers 200 either way: the profile, or null for a new wallet", async () => {
      const known = await call<'user/lookup', PublicUser | null>(t.app, 'user/lookup', {
        userName: DEMO_ROOT.userName,
      })
      expect([known.status, known.body.data]).toEqual([
        200,
        { userName: DEMO_ROOT.userName, nickName: 'HOPE', image: '' },
      ])
      const fresh = await call(t.app, 'user/lookup', { userName: newWallet().address })
      expect([fresh.status, fresh.body.code, fresh.body.data]).toEqual([200, 200, null])
    })

    test('an invitation code is checked before any signature, a mistyped one refused', async () => {
      const known = await call(t.app, 'user/checkInvitationCode', {
        invitationCode: ` ${DEMO_ROOT.referralCode.toLowerCase()} `,
      })
      expect([known.status, known.body.data]).toEqual([200, null])
      const typo = await call(t.app, 'user/checkInvitationCode', { invitationCode: 'HOPE2O26' })
      expect([typo.status, typo.body.reason]).toEqual([400, 'invitation_code_unknown'])
    })
  })

  describe('login', () => {
    test('logs in a registered address and the token reads the user info', async () => {
      const { wallet } = await register()
      const login = await call<'user/logining', LoginResult>(
        t.app,
        'user/logining',
        { ...(await signLogin(wallet)), location: '1' },
        { ip: ip() },
      )
      expect(login.body.code).toBe(200)
      const info = await call<'user/getUserInfo', UserInfo>(
        t.app,
        'user/getUserInfo',
        {},
        { token: login.body.data.token },
      )
      expect(info.body.data.userName).toBe(wallet.address.toLowerCase())
      expect(info.body.data).not.toHaveProperty('token')
      expect(info.body.data.nodes).toEqual([])
    })

    test('an unregistered address is 404 not_registered', async () => {
      const res = await call(t.app, 'user/logining', await signLogin(newWallet()), { ip: ip() })
      expect(res.status).toBe(404)
      expect(res.body.reason).toBe('not_registered')
    })

    test('a pair reused inside its window is accepted and replaces the session it opened', async () => {
      const { wallet } = await register()
      const pair = await signLogin(wallet, Date.now() - 1_000)
      const first = await call<'user/logining', LoginResult>(t.app, 'user/logining', pair, {
        ip: ip(),
      })
      const second = await call<'user/logining', LoginResult>(t.app, 'user/logining', pair, {
        ip: ip(),
      })
      expect(second.body.code).toBe(200)
      expect(second.body.data.token).not.toBe(first.body.data.token)
      const old = await call(t.app, 'user/getUserInfo', {}, { token: first.body.data.token })
      expect(old.body.reason).toBe('session_expired')
      const current = await call(t.app, 'user/getUserInfo', {}, { token: second.body.data.token })
      expect(current.body.code).toBe(200)
    })

    test('concurrent logins with one pair leave exactly one live session', async () => {
      const { wallet } = await register()
      const pair = await signLogin(wallet, Date.now() + 1)
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          call<'user/logining', LoginResult>(t.app, 'user/logining', pair, { ip: ip() }),
        ),
      )
      expect(results.every((r) => r.body.code === 200)).toBe(true)
      const answers = await Promise.all(
        results.map((r) => call(t.app, 'user/getUserInfo', {}, { token: r.body.data.token })),
      )
      expect(answers.filter((a) => a.body.code === 200)).toHaveLength(1)
    })

    test('a message older than the window is signature_expired', async () => {
      const { wallet } = await register()
      const res = await call(
        t.app,
        'user/logining',
        await signLogin(wallet, Date.now() - 5 * 60_000 - 5_000),
        { ip: ip() },
      )
      expect(res.status).toBe(401)
      expect(res.body.reason).toBe('signature_expired')
    })

    test('a message just inside the window is accepted', async () => {
      const { wallet } = await register()
      const res = await call(
        t.app,
        'user/logining',
        await signLogin(wallet, Date.now() - 4 * 60_000),
        { ip: ip() },
      )
      expect(res.body.code).toBe(200)
    })

    test('a message more than 60 s in the future is refused', async () => {
      const { wallet } = await register()
      const res = await call(t.app, 'user/logining', await signLogin(wallet, Date.now() + 90_000), {
        ip: ip(),
      })
      expect(res.body.reason).toBe('message_time_invalid')
      const ok = await call(t.app, 'user/logining', await signLogin(wallet, Date.now() + 30_000), {
        ip: ip(),
      })
      expect(ok.body.code).toBe(200)
    })

    test('a foreign signer or a corrupted signature is signature_invalid', async () => {
      const { wallet } = await register()
      const foreign = await signLogin(newWallet())
      const r1 = await call(
        t.app,
        'user/logining',
        { ...foreign, username: wallet.address },
        { ip: ip() },
      )
      expect(r1.body.reason).toBe('signature_invalid')
      const pair = await signLogin(wallet)
      const flipped =
        pair.signature.slice(0, 20) +
        (pair.signature[20] === 'a' ? 'b' : 'a') +
        pair.signature.slice(21)
      const r2 = await call(t.app, 'user/logining', { ...pair, signature: flipped }, { ip: ip() })
      expect(r2.body.reason).toBe('signature_invalid')
      const r3 = await call(
        t.app,
        'user/logining',
        { ...pair, signature: '0x' + '00'.repeat(65) },
        { ip: ip() },
      )
      expect(r3.body.reason).toBe('signature_invalid')
    })

    test('a message of another format is invalid_message', async () => {
      const wallet = newWallet()
      for (const message of ['hello', 'HOPE Login', `HOPE Login ${Date.now()}`]) {
        const signature = await wallet.signMessage({ message })
        const res = await call(
          t.app,
          'user/logining',
          { username: wallet.address, message, signature },
          { ip: ip() },
        )
        expect(res.body.reason).toBe('invalid_message')
      }
    })
  })

  describe('bad input', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['missing fields', {}],
      ['a short address', { username: '0x1234' }],
      ['a non-hex address', { username: '0x' + 'zz'.repeat(20) }],
      ['location 0', { location: '0' }],
      ['location 4', { location: '4' }],
      ['a negative location', { location: '-1' }],
      ['a fractional location', { location: '1.5' }],
      ['NaN location', { location: 'NaN' }],
      ['a huge location', { location: '9'.repeat(40) }],
      ['a signature that is not hex', { signature: 'not-a-signature' }],
      ['a huge message', { message: 'x'.repeat(10_000) }],
    ]
    test.each(cases)('%s is 400 invalid_params and nothing happens', async (_name, override) => {
      const wallet = newWallet()
      const pair = await signLogin(wallet)
      const params = Object.keys(override).length ? { ...pair, ...override } : {}
      const res = await call(t.app, 'user/logining', params, { ip: ip() })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ code: 400, reason: 'invalid_params', data: null })
      const sessions = await t.db.pool.query(
        'SELECT count(*) FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.user_name = $1',
        [wallet.address.toLowerCase()],
      )
      expect(sessions.rows[0].count).toBe('0')
    })

    test('a repeated query key (array) is refused', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/user/getUserInfoByName?userName=a&userName=b`,
      })
      expect(res.json().reason).toBe('invalid_params')
    })

    test('a malformed JSON body is refused without a stack trace', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/user/getUserInfoByName?userName=x',
        headers: { 'content-type': 'application/json' },
        payload: '{"broken',
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().reason).toBe('invalid_params')
      expect(res.body).not.toMatch(/at .*\.ts:\d+/)
    })
  })

  describe('session', () => {
    test('without a token is 401 not_logged_in; a made-up token is session_expired', async () => {
      expect((await call(t.app, 'user/getUserInfo')).body.reason).toBe('not_logged_in')
      expect(
        (await call(t.app, 'user/getUserInfo', {}, { token: 'x'.repeat(43) })).body.reason,
      ).toBe('session_expired')
      expect((await call(t.app, 'user/getUserInfo', {}, { token: 'short' })).body.reason).toBe(
        'session_expired',
      )
    })

    test('logout revokes the token', async () => {
      const { res } = await register()
      const token = res.body.data.token
      expect((await call(t.app, 'user/logout', {}, { token })).body.code).toBe(200)
      const after = await call(t.app, 'user/getUserInfo', {}, { token })
      expect(after.status).toBe(401)
      expect(after.body.reason).toBe('session_expired')
    })

    test('an expired session is refused; tokens are stored hashed and expire in 7 days', async () => {
      const { res } = await register()
      const token = res.body.data.token
      const row = await t.db.pool.query(
        `SELECT encode(token_hash, 'hex') AS h, extract(epoch FROM s.expires_at - s.created_at) AS ttl FROM sessions s
         JOIN users u ON u.id = s.user_id WHERE u.user_name = $1`,
        [res.body.data.userName],
      )
      expect(row.rows[0].h).not.toContain(Buffer.from(token).toString('hex'))
      expect(Math.round(Number(row.rows[0].ttl) / 86_400)).toBe(7)
      await t.db.pool.query(
        `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE user_name = $1)`,
        [res.body.data.userName],
      )
      expect((await call(t.app, 'user/getUserInfo', {}, { token })).body.reason).toBe(
        'session_expired',
      )
    })
  })

  describe('conventions', () => {
    test("the spec's client signs up and in as it sends: every field, unset ones empty, form-typed empty body", async () => {
      const wallet = newWallet()
      // The client's state: no inviter in the URL, no location chosen; the code typed by hand.
      const send = async (path: 'user/register' | 'user/logining', extra: string) => {
        const pair = await signLogin(wallet)
        const query = new URLSearchParams({ ...pair, location: '', pusername: '' })
        return t.app.inject({
          method: 'POST',
          url: `/api/${path}?${query}${extra}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', lan: 'zh_CN' },
          payload: '',
          remoteAddress: ip(),
        })
      }
      const up = await send('user/register', `&invitationCode=${DEMO_ROOT.referralCode}`)
      expect(up.statusCode, up.body).toBe(200)
      expect(up.json().data.location).toBe(1)
      const inn = await send('user/logining', '')
      expect(inn.statusCode, inn.body).toBe(200)
      expect(inn.json().data.userName).toBe(wallet.address.toLowerCase())
    })

    test('msg follows the lan header and an unknown lan falls back to Chinese', async () => {
      const en = await call(t.app, 'user/getUserInfo', {}, { lang: 'en' })
      expect(en.body.msg).toBe('Please log in first')
      const ko = await call(t.app, 'user/getUserInfo', {}, { lang: 'ko' })
      expect(ko.body.msg).toBe('먼저 로그인하세요')
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/api/user/getUserInfo',
        headers: { lan: 'xx_XX' },
      })
      expect(unknown.json().msg).toBe('请先登录')
    })

    test('an unknown route is 404 not_found in the envelope', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/user/nothing',
        headers: { lan: 'en_US' },
      })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toMatchObject({
        code: 404,
        msg: 'Not found',
        reason: 'not_found',
        data: null,
      })
    })

    test('a GET on a POST route is not served', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/user/getUserInfo' })
      expect(res.statusCode).toBe(404)
    })

    test("an address's own valid signatures are never refused by its failure count", async () => {
      const wallet = newWallet()
      const statuses: number[] = []
      for (let i = 0; i < 12; i++) {
        statuses.push(
          (await call(t.app, 'user/logining', await signLogin(wallet), { ip: ip() })).status,
        )
      }
      // Unregistered, but signed by its owner: each answer is the real one.
      expect(statuses).toEqual(Array(12).fill(404))
    })

    test('login attempts are rate-limited per IP', async () => {
      const fixedIp = '10.200.0.1'
      let limited: { body: { reason?: string }; headers: Record<string, unknown> } | null = null
      for (let i = 0; i < 61 && !limited; i++) {
        const res = await call(t.app, 'user/logining', await signLogin(newWallet()), {
          ip: fixedIp,
        })
        if (res.status === 429) limited = res
      }
      expect(limited?.body.reason).toBe('rate_limited')
      expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0)
    })
  })
})
