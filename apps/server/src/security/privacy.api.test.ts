import { Writable } from 'node:stream'
import {
  ROUTES,
  type LoginResult,
  type OperatorSession,
  type Ranking,
  type RoutePath,
} from '@hope/api'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildApp, loggerOptions } from '../app.ts'
import { loadConfig } from '../config.ts'
import { BASES } from '../contract.sweep.cases.ts'
import { base32Encode } from '../lib/totp.ts'
import {
  DEMO_ROOT,
  TEST_OPERATOR_SECRET_KEY,
  call,
  databaseTargets,
  insertTestUser,
  newWallet,
  registerUser,
  signLogin,
  useTestDatabase,
} from '../testing/index.ts'

/** An RPC provider's URL with its key in the path, as operators configure CHAIN_RPC_URL. */
const RPC_URL = 'https://eth.rpc.example/v3/5d1f0c9e8b7a6d4c3b2a1f0e'

/** `0x1234******345678`: the first six and the last six characters (spec §9). */
const MASKED = /^0x[0-9a-f]{4}\*{6}[0-9a-f]{6}$/

describe.each(databaseTargets())('privacy on $name', (target) => {
  const t = useTestDatabase(target)
  let app: FastifyInstance
  const lines: string[] = []
  const logs = () => lines.join('')

  beforeAll(async () => {
    const config = {
      ...loadConfig({
        PUBLIC_URL: 'http://hope.test',
        OPERATOR_SECRET_KEY: TEST_OPERATOR_SECRET_KEY,
      }),
      webDist: undefined,
    }
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString())
        done()
      },
    })
    // The production logger, at its most talkative, writing where the test can read it.
    app = await buildApp({
      config,
      database: t.db,
      logger: { ...loggerOptions({ logLevel: 'trace', chainRpcUrl: RPC_URL }), stream },
    })
    // A failure that carries secrets the way a library error might, to reach the error log.
    app.post('/api/privacy/fail', async (req) => {
      throw Object.assign(new Error('failed on purpose'), {
        headers: { token: req.headers.token },
        signature: String(req.headers['x-signature']),
      })
    })
  })
  afterAll(async () => {
    await app?.close()
  })

  test('logs never carry a token, a signature, a password or a key', async () => {
    const wallet = newWallet()
    const pair = await signLogin(wallet)
    const registered = await call<'user/register', LoginResult>(app, 'user/register', {
      ...pair,
      invitationCode: DEMO_ROOT.referralCode,
    })
    expect(registered.status).toBe(200)
    const login = await call<'user/logining', LoginResult>(
      app,
      'user/logining',
      await signLogin(wallet, Date.now() + 1),
    )
    const token = login.body.data.token
    expect((await call(app, 'user/getUserInfo', {}, { token })).status).toBe(200)
    // A token put in the query string by mistake is not logged either.
    await app.inject({ method: 'POST', url: `/api/user/getUserInfo?token=${token}` })
    const refused = await call(app, 'user/logining', {
      ...pair,
      signature: pair.signature.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')),
    })
    expect(refused.status).toBe(401)
    const failed = await app.inject({
      method: 'POST',
      url: '/api/privacy/fail',
      headers: { token, 'x-signature': pair.signature },
    })
    expect(failed.statusCode).toBe(500)

    const op = await app.services.operators.create('privacy-op', 'privacy-op-password-1', 'admin')
    const opLogin = await call<'admin/login', OperatorSession>(app, 'admin/login', {
      username: 'privacy-op',
      password: 'privacy-op-password-1',
    })
    const opToken = opLogin.body.data.token
    expect((await call(app, 'admin/me', {}, { token: opToken })).status).toBe(200)
    await call(app, 'admin/login', { username: 'privacy-op', password: 'wrong-password-9' })
    app.log.info(
      { token, signature: pair.signature, user: { privateKey: '0xfeed', password: 'pw-9' } },
      'an object handed to the logger',
    )
    // A chain job's failure, the way viem reports an RPC it could not reach.
    app.log.warn(
      {
        err: Object.assign(new Error(`HTTP request failed.\n\nURL: ${RPC_URL}`), {
          url: RPC_URL,
        }),
        job: 'deposits',
      },
      'deposits failed; retrying',
    )

    const text = logs()
    // The stream really holds the requests and the failure, so the checks below mean something.
    expect(text).toContain('/api/user/logining')
    expect(text).toContain('/api/admin/login')
    expect(text).toContain('failed on purpose')
    expect(text).toContain('https://eth.rpc.example/[redacted]')
    expect(text).toContain('[redacted]')
    const secrets = {
      token,
      opToken,
      signature: pair.signature.slice(2),
      password: 'privacy-op-password-1',
      wrongPassword: 'wrong-password-9',
      totpSecret: base32Encode(op.totpSecret),
      privateKey: '0xfeed',
      nestedPassword: 'pw-9',
      rpcKey: '5d1f0c9e8b7a6d4c3b2a1f0e',
    }
    for (const [name, secret] of Object.entries(secrets))
      expect(text.includes(secret), `${name} in the logs`).toBe(false)
    // Nor the login message's pair as a query string.
    expect(text).not.toContain('signature=')
  })

  test('lists others see mask every address but their own downline', async () => {
    const viewer = await registerUser(app)
    const downline = await registerUser(app, viewer.userName)
    const others: string[] = [DEMO_ROOT.userName]
    for (let i = 0; i < 2; i++) {
      const inviter = await registerUser(app)
      others.push(inviter.userName)
      for (let j = 0; j <= i; j++)
        others.push((await insertTestUser(t.db.pool, { inviterId: inviter.id })).userName)
    }

    const seen: Record<string, string> = {}
    const userFacing = (Object.keys(ROUTES) as RoutePath[]).filter(
      (p) => ROUTES[p].auth !== 'operator' && p !== 'user/logout',
    )
    for (const path of userFacing) {
      const res = await call(app, path, BASES[path], { token: viewer.token })
      seen[path] = JSON.stringify(res.body).toLowerCase()
    }
    for (const kind of ['inviters', 'performance']) {
      const res = await call<'main/ranking', Ranking>(
        app,
        'main/ranking',
        { kind },
        { token: viewer.token },
      )
      expect(res.status).toBe(200)
      for (const item of res.body.data.list) expect(item.address).toMatch(MASKED)
      seen[`main/ranking ${kind}`] = JSON.stringify(res.body).toLowerCase()
    }
    const inviters = JSON.parse(seen['main/ranking inviters']!) as { data: Ranking }
    expect(inviters.data.list.length).toBeGreaterThanOrEqual(3)

    for (const [where, text] of Object.entries(seen)) {
      for (const address of others)
        expect(text, `${address} in ${where}`).not.toContain(address.slice(2))
      // The members one invited are one's own to see in full (transfers go to them).
      if (where !== 'game/groupZt') expect(text, where).not.toContain(downline.userName.slice(2))
    }
    expect(seen['game/groupZt']).toContain(downline.userName)
  })
})
