import { randomBytes } from 'node:crypto'
import net, { type AddressInfo } from 'node:net'
import {
  CHAT_SOCKET_PATH,
  REASON_CODES,
  ROUTES,
  buildLoginMessage,
  langFromHeader,
  parseAmount,
  reasonMessage,
  type AccountLogPage,
  type ChatHistory,
  type ChatServerFrame,
  type ChatUnread,
  type Page,
  type Reason,
  type RoutePath,
  type Withdrawal,
} from '@hope/api'
import fc from 'fast-check'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts'
import { connectChain } from './chain/chain.service.ts'
import { verifyLedger } from './modules/ledger/ledger.verify.ts'
import { tokenHash } from './modules/user/user.rules.ts'
import { formBodyFields, jsonBodyFields } from './plugins/body.ts'
import { requestFields } from './plugins/routes.ts'
import { fieldWithNul } from './security/text.ts'
import {
  call,
  databaseTargets,
  fundAccount,
  newOperator,
  registerUser,
  useTestApp,
  type TestUser,
} from './testing/index.ts'
import {
  BASES,
  REFUSED_BY_MEANING,
  NAMED_VALUES,
  namedProbes,
  oddValue,
  paramNames,
  probeOf,
  queryOf,
  rightToken,
  urlOf,
  type Probe,
  type TokenKind,
} from './contract.sweep.cases.ts'

const ALL_ROUTES = Object.keys(ROUTES) as RoutePath[]

/** secp256k1's group order: s and n − s both verify; only the low one is canonical (EIP-2). */
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/** The high-s twin of a 65-byte signature: s → n − s, v flipped. */
function malleableTwin(signature: `0x${string}`): `0x${string}` {
  const r = signature.slice(2, 66)
  const s = BigInt(`0x${signature.slice(66, 130)}`)
  const v = parseInt(signature.slice(130, 132), 16)
  const twinS = (CURVE_ORDER - s).toString(16).padStart(64, '0')
  const twinV = (v === 27 ? 28 : v === 28 ? 27 : v ^ 1).toString(16).padStart(2, '0')
  return `0x${r}${twinS}${twinV}`
}
const USER_ROUTES = ALL_ROUTES.filter((p) => ROUTES[p].auth === true)
const OPERATOR_ROUTES = ALL_ROUTES.filter((p) => ROUTES[p].auth === 'operator')
/**
 * Generated probes per route; with the named ones every route gets well over a hundred.
 * `SWEEP_RUNS=400` makes a longer hunt.
 */
const GENERATED_RUNS = Number(process.env.SWEEP_RUNS ?? 40)
/** The default per-currency bound on one request's amount, in whole units. */
const BOUND = 10n ** 12n
/** Amounts just past the bound, past the contract's ceiling, and past what a column holds. */
const PAST_THE_BOUND = [
  '1000000000000.000001',
  '1000000000001',
  '1000000000000000',
  '99999999999999999999',
  '1000000000000000000000000000000',
]
const BODY_LIMIT = 64 * 1024

/**
 * Tables whose rows are money or decide it. The sweep compares every row of them (a digest)
 * before and after, with the counts and sums the report names.
 */
const MONEY_TABLES = [
  'ledger_accounts',
  'ledger_transfers',
  'ledger_entries',
  'withdrawals',
  'deposits',
  'users',
  'stake_positions',
  'pledge_items',
  'token_sale',
  'node_holders',
  'split_grants',
  'split_grant_days',
  'team_stats',
  'settlement_user_values',
  'settlement_rank_rewards',
  'settings',
] as const

interface Answer {
  status: number
  body: { code?: number; msg?: string; reason?: string; data?: unknown } | null
  text: string
}

const clip = (v: string) =>
  v.length > 40 ? `${JSON.stringify(v.slice(0, 24))}…(${v.length})` : JSON.stringify(v)
const describeProbe = (p: Probe) =>
  `[${p.label}] token=${p.token} lan=${p.lan ?? '-'} ${p.pairs.map(([k, v]) => `${k}=${clip(v)}`).join('&')}${p.body ? ` body(${p.body.type})` : ''}`

/**
 * The fields a body adds (DESIGN §2): a JSON object's or a form's; an empty body adds none,
 * whatever its type. Null when the server must refuse the body itself.
 */
function bodyFieldsOf(body: Probe['body']): Record<string, unknown> | null {
  if (!body) return {}
  if (Buffer.byteLength(body.payload) > BODY_LIMIT) return null
  const text = body.payload.toString()
  if (text.trim() === '') return {}
  if (body.type === 'application/x-www-form-urlencoded') return formBodyFields(text)
  if (body.type !== 'application/json') return null
  try {
    return jsonBodyFields(JSON.parse(text))
  } catch {
    return null
  }
}

const bodyAccepted = (body: Probe['body']) => bodyFieldsOf(body) !== null

/** True when the contract (or the body rules) refuses the probe, so the server must too. */
function mustRefuse(path: RoutePath, probe: Probe): boolean {
  // No generated body is an image, so the upload route has nothing it may store.
  if (path === 'admin/upload') return true
  const refusedHere = ([k, v]: [string, string]) =>
    Object.hasOwn(REFUSED_BY_MEANING, k) && REFUSED_BY_MEANING[k]!.includes(v.trim())
  if (probe.pairs.some(refusedHere)) return true
  const fromBody = bodyFieldsOf(probe.body)
  if (fromBody === null) return true
  // What the route reads: the query's fields, the body's where the query has none, empty
  // values as not given.
  const fields = requestFields(queryOf(probe.pairs), fromBody)
  return !ROUTES[path].params.safeParse(fields).success || fieldWithNul(fields) !== null
}

/** What is wrong with an answer, or null: a clear, translated 4xx for every bad payload. */
function judge(path: RoutePath, probe: Probe, res: Answer): string | null {
  const { status, body } = res
  if (!body || typeof body !== 'object') return `not an envelope: ${res.text.slice(0, 120)}`
  if (body.code !== status) return `envelope code ${body.code} on HTTP ${status}`
  const auth = ROUTES[path].auth
  const refuse = mustRefuse(path, probe)
  const wrongOperator = auth === 'operator' && probe.token !== 'operator'
  const wrongUser = auth === true && probe.token !== 'user'
  // The body is read before any handler: a body refused is a 400 whoever sends it. Otherwise
  // the session comes first: a guarded route answers 401 whatever its parameters.
  if ((wrongOperator || wrongUser) && bodyAccepted(probe.body)) {
    const want = probe.token === 'none' ? 'not_logged_in' : 'session_expired'
    if (status !== 401 || body.reason !== want)
      return `expected 401 ${want}, got ${status} ${body.reason}`
  }
  if (status >= 500) return `server error ${status} ${body.reason}`
  if (refuse && status === 200) return 'a bad payload was accepted'
  if (status === 200) return null
  if (status < 400) return `unexpected status ${status}`
  const reason = body.reason as Reason
  if (!Object.hasOwn(REASON_CODES, reason)) return `unknown reason ${body.reason}`
  if (REASON_CODES[reason] !== status)
    return `reason ${reason} travels with ${REASON_CODES[reason]}, not ${status}`
  if (body.data !== null) return 'an error carries data'
  const lang = langFromHeader(probe.lan)
  const base = reasonMessage(reason, lang)
  const msg = body.msg ?? ''
  // A field name or a bound may follow the message.
  const translated =
    reason === 'invalid_params' || reason === 'amount_too_large'
      ? msg === base || msg.startsWith(`${base}: `)
      : msg === base
  if (!translated) return `msg ${JSON.stringify(msg)} is not the ${lang} text of ${reason}`
  if (lang === 'en' && (/^[a-z_]+$/.test(msg) || !/^[A-Z]/.test(msg)))
    return `English msg ${JSON.stringify(msg)} reads like a code`
  if (/\n\s+at |\.ts:\d+/.test(res.text)) return 'a stack trace leaked'
  return null
}

describe.each(databaseTargets())('contract sweep on $name', (target) => {
  // A chain the routes can name; no request here reaches it.
  const t = useTestApp(target, { chain: connectChain('http://127.0.0.1:9', 31337) })
  const tokens: Record<TokenKind, string | undefined> = {
    none: undefined,
    user: undefined,
    operator: undefined,
    forged: randomBytes(32).toString('base64url'),
  }
  let mallory: TestUser
  let alice: TestUser
  let bob: TestUser
  /** Alice's downline: a transfer to her is one the contract allows. */
  let carol: TestUser
  let aliceWithdrawal: Withdrawal
  let before: Record<string, unknown>
  /** Sessions the test deletes behind the server's back. */
  let goneUser: string
  let goneOperator: string
  const walked = new Set<RoutePath>()
  const counts = { named: 0, generated: 0, amounts: 0, auth: 0, ids: 0 }
  let ipNo = 0
  const nextIp = () => {
    ipNo += 1
    return `10.${100 + (ipNo >> 16)}.${(ipNo >> 8) & 255}.${ipNo & 255}`
  }

  /** The app on a real socket at 127.0.0.1, for what `inject` does not pass through. */
  async function listening(): Promise<number> {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' })
    return (t.app.server.address() as AddressInfo).port
  }

  async function send(path: RoutePath, probe: Probe): Promise<Answer> {
    const token = tokens[probe.token]
    const res = await t.app.inject({
      method: 'POST',
      url: urlOf(path, probe.pairs),
      headers: {
        'content-type': probe.body?.type ?? 'application/json;charset=UTF-8',
        ...(probe.lan !== undefined ? { lan: probe.lan } : {}),
        ...(token ? { token } : {}),
      },
      ...(probe.body ? { payload: probe.body.payload } : {}),
      remoteAddress: nextIp(),
    })
    // A logout in the sweep must not end the sessions the rest of it uses.
    if (path === 'user/logout')
      await t.db.pool.query('UPDATE sessions SET revoked_at = NULL WHERE user_id = $1', [
        mallory.id,
      ])
    if (path === 'admin/logout')
      await t.db.pool.query('UPDATE operator_sessions SET revoked_at = NULL')
    let body: Answer['body'] = null
    try {
      body = res.json()
    } catch {
      body = null
    }
    return { status: res.statusCode, body, text: res.body }
  }

  async function probe(path: RoutePath, p: Probe): Promise<string | null> {
    const res = await send(path, p)
    walked.add(path)
    const problem = judge(path, p, res)
    return problem && `${path} ${describeProbe(p)}: ${problem}`
  }

  async function snapshot(): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {}
    for (const table of MONEY_TABLES) {
      out[table] = (
        await t.db.pool.query(
          `SELECT count(*)::int AS rows, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM ${table} t`,
        )
      ).rows[0]
    }
    out.sums = (
      await t.db.pool.query(`SELECT
        (SELECT sum(balance)::text FROM ledger_accounts WHERE user_id IS NOT NULL) AS user_balances,
        (SELECT sum(debits_pending)::text FROM ledger_accounts) AS pending,
        (SELECT sum(abs(amount))::text FROM ledger_entries) AS entries,
        (SELECT coalesce(sum(amount + fee), 0)::text FROM withdrawals) AS withdrawn,
        (SELECT string_agg(status::text, ',' ORDER BY id) FROM withdrawals) AS statuses,
        (SELECT sum(level)::int FROM users) AS levels`)
    ).rows[0]
    return out
  }

  beforeAll(async () => {
    await t.app.services.settings.set('chainTokenAddress', `0x${'0e'.repeat(20)}`, 'sweep')
    await t.app.services.settings.set('chainDepositAddress', `0x${'0d'.repeat(20)}`, 'sweep')
    tokens.operator = await newOperator(t.app, 'sweep-admin', 'admin', 'sweep-admin-password')
    goneOperator = await newOperator(t.app, 'sweep-gone', 'support', 'sweep-gone-password')
    goneUser = (await registerUser(t.app)).token
    mallory = await registerUser(t.app)
    tokens.user = mallory.token
    alice = await registerUser(t.app)
    bob = await registerUser(t.app)
    carol = await registerUser(t.app, alice.userName)
    // Real withdrawal ids far above any small number a payload may carry.
    await t.db.pool.query('ALTER TABLE withdrawals ALTER COLUMN id RESTART WITH 700000000')
    await fundAccount(t.db.pool, alice.id, '100')
    await fundAccount(t.db.pool, bob.id, '50')
    await fundAccount(t.db.pool, alice.id, '100', 'community')
    await fundAccount(t.db.pool, alice.id, '100', 'node')
    aliceWithdrawal = (
      await t.as<'userAccount/withdraw', Withdrawal>(alice, 'userAccount/withdraw', {
        amount: '20',
        idempotencyKey: 'alice-withdrawal-1',
      })
    ).body.data
    await t.as(alice, 'chat/send', { clientId: 'alice-chat-0001', body: 'hi' })
    await call(
      t.app,
      'admin/chatReply',
      { userName: alice.userName, clientId: 'op-reply-0001', body: 'hello alice' },
      { token: tokens.operator },
    )
    before = await snapshot()
  })
  afterAll(async () => {
    const total = Object.values(counts).reduce((a, b) => a + b, 0)
    console.info(
      `contract sweep on ${target.name}: ${total} requests over ${walked.size} routes ` +
        `(${counts.named} named values, ${counts.generated} generated, ${counts.amounts} amounts on funded accounts, ` +
        `${counts.auth} auth, ${counts.ids} other users' ids)`,
    )
  })

  test('every route has a harmless base the contract accepts', () => {
    expect(Object.keys(BASES).sort()).toEqual([...ALL_ROUTES].sort())
    for (const path of ALL_ROUTES) {
      const parsed = ROUTES[path].params.safeParse(BASES[path])
      expect(parsed.success, `${path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true)
    }
  })

  test('named bad values in every parameter get a translated 4xx', async () => {
    const failures: string[] = []
    for (const path of ALL_ROUTES) {
      for (const p of namedProbes(path)) {
        counts.named += 1
        const problem = await probe(path, p)
        if (problem) failures.push(problem)
      }
    }
    expect(failures).toEqual([])
  }, 120_000)

  test('generated bad payloads, tokens and bodies get a translated 4xx', async () => {
    const failures: string[] = []
    for (const path of ALL_ROUTES) {
      const details = await fc.check(
        fc.asyncProperty(probeOf(path), async (p) => {
          counts.generated += 1
          const problem = await probe(path, p)
          if (problem) throw new Error(problem)
        }),
        { numRuns: GENERATED_RUNS, maxSkipsPerRun: 1000 },
      )
      if (details.failed) {
        const error = details.errorInstance as Error | undefined
        failures.push(`seed ${details.seed} path ${details.counterexamplePath}: ${error?.message}`)
      }
    }
    expect(failures).toEqual([])
  }, 120_000)

  test('a request head Node refuses (100k query, garbage) still gets the translated envelope', async () => {
    const port = await listening()
    const raw = (head: string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(head))
        let out = ''
        socket.on('data', (d: Buffer) => (out += d.toString()))
        socket.on('close', () => resolve(out))
        socket.on('error', () => resolve(out))
      })
    const answers = [
      await raw(
        `POST /api/user/getUserInfoByName?userName=${'x'.repeat(100_000)} HTTP/1.1\r\nHost: a\r\nlan: en_US\r\n\r\n`,
      ),
      await raw(
        `POST /api/user/getUserInfo HTTP/1.1\r\nHost: a\r\nlan: en_US\r\nx-pad: ${'a'.repeat(70_000)}\r\n\r\n`,
      ),
      await raw('HELLO WORLD\r\n\r\n'),
    ]
    for (const answer of answers) {
      counts.named += 1
      expect(answer).toMatch(/^HTTP\/1\.1 400 /)
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Answer['body']
      expect(body).toMatchObject({ code: 400, reason: 'invalid_params', data: null })
      // The language is read when the refused head shows it; else the default applies.
      expect([
        reasonMessage('invalid_params', 'en'),
        reasonMessage('invalid_params', 'zhcn'),
      ]).toContain(body!.msg)
    }
  })

  test('the chat socket answers bad frames with a translated 4xx, never a 500', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${await listening()}${CHAT_SOCKET_PATH}`)
    const frames: ChatServerFrame[] = []
    ws.on('message', (d) => frames.push(JSON.parse(String(d)) as ChatServerFrame))
    await new Promise((resolve, reject) => {
      ws.once('open', resolve)
      ws.once('error', reject)
    })
    const waitFor = async (n: number) => {
      for (let i = 0; i < 100 && frames.length < n; i++) await new Promise((r) => setTimeout(r, 20))
      expect(frames.length, JSON.stringify(frames)).toBeGreaterThanOrEqual(n)
    }
    try {
      ws.send(JSON.stringify({ type: 'auth', token: mallory.token, lan: 'en_US' }))
      await waitFor(1)
      expect(frames[0]!.type).toBe('ready')
      const bad: unknown[] = [
        { type: 'send', clientId: 'sweep-ws-0001', body: 'a\u0000b' },
        { type: 'send', clientId: 'sweep-ws-\u0000', body: 'hello' },
        { type: 'send', clientId: 'sweep-ws-0002', body: '' },
        { type: 'send', clientId: 'sweep-ws-0003', body: 'x'.repeat(1_001) },
        { type: 'send', clientId: "' OR 1=1 --", body: 'hello' },
        { type: 'send', clientId: 'sweep-ws-0004', body: ['a'] },
        { type: 'nothing' },
      ]
      for (const f of bad) ws.send(JSON.stringify(f))
      await waitFor(1 + bad.length)
      for (const f of frames.slice(1)) {
        counts.named += 1
        if (f.type !== 'error') throw new Error(`not refused: ${JSON.stringify(f)}`)
        expect(f.code, JSON.stringify(f)).toBeGreaterThanOrEqual(400)
        expect(f.code, JSON.stringify(f)).toBeLessThan(500)
        expect(f.msg).toBe(reasonMessage(f.reason, 'en'))
      }
    } finally {
      ws.close()
    }
  })

  test('bad amounts against funded accounts and a real downline move nothing', async () => {
    // Everything but the amount is right, so only the amount stands between the call and money.
    const cases: [RoutePath, number, 'alice' | 'operator', Record<string, string>][] = [
      ['userAccount/transfer', 6, 'alice', { address: carol.userName }],
      ['userAccount/collect', 6, 'alice', { account: 'node' }],
      ['userAccount/withdraw', 6, 'alice', {}],
      ['game/change', 6, 'alice', {}],
      ['game/sqChange', 18, 'alice', {}],
      ['admin/credit', 6, 'operator', { userName: alice.userName, account: 'usdt', reason: 'x' }],
      ['admin/debit', 6, 'operator', { userName: alice.userName, account: 'usdt', reason: 'x' }],
    ]
    const failures: string[] = []
    let key = 0
    const tryAmount = async (
      [path, decimals, who, rest]: (typeof cases)[number],
      amount: string,
    ): Promise<string | null> => {
      const units = parseAmount(amount, decimals)
      // A real amount within the bound is no bad input; only the others are tried.
      if (units !== null && units > 0n && units <= BOUND * 10n ** BigInt(decimals)) return null
      counts.amounts += 1
      walked.add(path)
      const lang = key % 2 ? 'en' : 'ko'
      const res = await call(
        t.app,
        path,
        { ...rest, amount, idempotencyKey: `amount-probe-${++key}` },
        { token: who === 'alice' ? alice.token : tokens.operator, lang, ip: nextIp() },
      )
      const reason = res.body.reason as Reason | undefined
      const ok =
        res.status >= 400 &&
        res.status < 500 &&
        reason !== undefined &&
        res.body.msg?.startsWith(reasonMessage(reason, lang))
      return ok ? null : `${path} amount=${clip(amount)}: ${res.status} ${reason} ${res.body.msg}`
    }
    for (const c of cases) {
      for (const value of [...NAMED_VALUES.map(([, v]) => v), ...PAST_THE_BOUND]) {
        const problem = await tryAmount(c, value)
        if (problem) failures.push(problem)
      }
      // At the bound itself: a real amount, more than anyone here holds (a credit would move it).
      if (c[0] !== 'admin/credit') {
        counts.amounts += 1
        const [path, , who, rest] = c
        const res = await call(
          t.app,
          path,
          { ...rest, amount: String(BOUND), idempotencyKey: `amount-bound-${++key}` },
          { token: who === 'alice' ? alice.token : tokens.operator, lang: 'en', ip: nextIp() },
        )
        if (res.status < 400 || res.status >= 500)
          failures.push(`${path} amount at the bound: ${res.status} ${res.body.reason}`)
      }
      await fc.assert(
        fc.asyncProperty(oddValue, async (v) => {
          const problem = await tryAmount(c, v)
          if (problem) failures.push(problem)
        }),
        { numRuns: 40 },
      )
    }
    expect(failures).toEqual([])
  }, 60_000)

  test('user routes refuse operator tokens; operator routes refuse user tokens; no token is 401 whatever the parameters', async () => {
    const check = async (
      path: RoutePath,
      token: string | undefined,
      want: Reason,
      params: Record<string, string> = BASES[path],
    ) => {
      counts.auth += 1
      const res = await call(t.app, path, params, { ...(token ? { token } : {}), lang: 'en' })
      walked.add(path)
      return res.status === 401 &&
        res.body.reason === want &&
        res.body.msg === reasonMessage(want, 'en')
        ? null
        : `${path}: ${res.status} ${res.body.reason}, expected 401 ${want}`
    }
    const failures: (string | null)[] = []
    for (const path of USER_ROUTES) {
      failures.push(await check(path, tokens.operator, 'session_expired'))
      failures.push(await check(path, undefined, 'not_logged_in'))
      failures.push(await check(path, undefined, 'not_logged_in', {}))
    }
    for (const path of OPERATOR_ROUTES) {
      failures.push(await check(path, mallory.token, 'session_expired'))
      failures.push(await check(path, undefined, 'not_logged_in'))
      failures.push(await check(path, undefined, 'not_logged_in', {}))
    }
    expect(failures.filter(Boolean)).toEqual([])
    expect(USER_ROUTES.length + OPERATOR_ROUTES.length).toBeGreaterThan(60)
  })

  test('the token of a deleted session is refused everywhere', async () => {
    expect((await t.as(goneOperator, 'admin/me')).status).toBe(200)
    await t.db.pool.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash(goneUser)])
    await t.db.pool.query('DELETE FROM operator_sessions WHERE token_hash = $1', [
      tokenHash(goneOperator),
    ])
    const wrong: string[] = []
    for (const [routes, token] of [
      [USER_ROUTES, goneUser],
      [OPERATOR_ROUTES, goneOperator],
    ] as const) {
      for (const path of routes) {
        counts.auth += 1
        const res = await call(t.app, path, BASES[path], { token })
        if (res.status !== 401 || res.body.reason !== 'session_expired')
          wrong.push(`${path}: ${res.status} ${res.body.reason}`)
      }
    }
    expect(wrong).toEqual([])
  })

  test('operator sign-in is rate-limited per address whatever the username', async () => {
    const limit = (await t.app.services.settings.get()).authRateLimitPerIp
    let last: Awaited<ReturnType<typeof call>> | undefined
    for (let i = 0; i <= limit; i++) {
      counts.auth += 1
      last = await call(
        t.app,
        'admin/login',
        { username: `guess-${i}`, password: 'guess-password', code: '123456' },
        { ip: '10.251.0.1', lang: 'en' },
      )
      if (i < limit) expect(last.body.reason).toBe('operator_login_failed')
    }
    expect([last!.status, last!.body.reason]).toEqual([429, 'rate_limited'])
    expect(last!.body.msg).toBe(reasonMessage('rate_limited', 'en'))
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0)
  })

  describe("another user's ids", () => {
    const asBob = <T>(path: RoutePath, params: Record<string, string>) => {
      counts.ids += 1
      walked.add(path)
      return call<RoutePath, T>(t.app, path, params, { token: bob.token, lang: 'en' })
    }

    test('a withdrawal of another user cannot be cancelled or seen', async () => {
      const cancel = await asBob('userAccount/cancelWithdraw', { id: String(aliceWithdrawal.id) })
      expect([cancel.status, cancel.body.reason]).toEqual([404, 'not_found'])
      expect(cancel.body.msg).toBe('Not found')
      const mine = await asBob<Page<Withdrawal>>('userAccount/myWithDraw', {})
      expect(mine.body.data.list.map((w) => w.id)).not.toContain(aliceWithdrawal.id)
      const row = await t.db.pool.query('SELECT status FROM withdrawals WHERE id = $1', [
        aliceWithdrawal.id,
      ])
      expect(row.rows[0].status).toBe(0)
    })

    test("another user's chat messages are neither read nor marked", async () => {
      const aliceIds = (
        await t.db.pool.query<{ id: string }>(
          `SELECT m.id::text FROM chat_messages m JOIN chat_conversations c ON c.id = m.conversation_id WHERE c.user_id = $1`,
          [alice.id],
        )
      ).rows.map((r) => Number(r.id))
      expect(aliceIds.length).toBe(2)
      const top = Math.max(...aliceIds)
      const history = await asBob<ChatHistory>('chat/history', { beforeId: String(top + 1) })
      expect(history.status).toBe(200)
      expect(history.body.data.list.filter((m) => aliceIds.includes(m.id))).toEqual([])
      await asBob('chat/read', { upToId: String(top) })
      const unread = await t.as<'chat/unread', ChatUnread>(alice, 'chat/unread')
      expect(unread.body.data.count).toBe(1)
    })

    test("another user's ledger entries are not reached through the cursor", async () => {
      const newest = (
        await t.db.pool.query<{ id: string }>(
          `SELECT max(e.transfer_id)::text AS id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.user_id = $1`,
          [alice.id],
        )
      ).rows[0]!.id
      const page = await asBob<AccountLogPage>('userAccount/balanceDetail', {
        cursor: `${Number(newest) + 1}.0`,
        pageSize: '100',
      })
      expect(page.status).toBe(200)
      const bobAccounts = (
        await t.db.pool.query<{ id: string }>(
          `SELECT id::text FROM ledger_accounts WHERE user_id = $1`,
          [bob.id],
        )
      ).rows.map((r) => r.id)
      // A line's id is <transfer>.<account>: every account named is one of Bob's.
      for (const e of page.body.data.list) expect(bobAccounts).toContain(e.id.split('.')[1])
    })

    test('money cannot be sent to, or spent on, a member outside the own downline', async () => {
      const transfer = await asBob('userAccount/transfer', {
        address: alice.userName,
        amount: '1',
        idempotencyKey: 'bob-to-alice-01',
      })
      expect([transfer.status, transfer.body.reason]).toEqual([409, 'not_downline'])
      const activate = await asBob('game/activate', {
        address: alice.userName,
        level: '1',
        idempotencyKey: 'bob-act-alice-1',
      })
      expect(activate.status).toBeGreaterThanOrEqual(400)
      expect(activate.status).toBeLessThan(500)
    })

    test("a recharge hash another user posted is a claim of one's own, leaving theirs alone", async () => {
      const hash = `0x${randomBytes(32).toString('hex')}`
      const claimed = await t.as(alice, 'userAccount/recharge', { txHash: hash })
      expect(claimed.status).toBe(200)
      const second = await asBob('userAccount/recharge', {
        txHash: hash.toUpperCase().replace('0X', '0x'),
      })
      expect(second.status).toBe(200)
      const owners = await t.db.pool.query<{ userId: number }>(
        'SELECT user_id::int AS "userId" FROM recharge_claims WHERE tx_hash = $1 ORDER BY id',
        [hash],
      )
      expect(owners.rows.map((r) => r.userId)).toEqual([alice.id, bob.id])
    })
  })

  test('a payload in a form or JSON body answers as the same payload in the query', async () => {
    const differ: string[] = []
    for (const path of ALL_ROUTES) {
      if (path === 'admin/upload') continue
      const base = BASES[path]
      const token = rightToken(path)
      const json = JSON.stringify(base)
      const form = new URLSearchParams(base).toString()
      const answers = [
        await send(path, { pairs: Object.entries(base), lan: 'en_US', token, label: 'query' }),
        await send(path, {
          pairs: [],
          lan: 'en_US',
          token,
          body: { type: 'application/x-www-form-urlencoded', payload: form },
          label: 'form body',
        }),
        await send(path, {
          pairs: [],
          lan: 'en_US',
          token,
          body: { type: 'application/json', payload: json },
          label: 'JSON body',
        }),
        // The spec's client: every field, empty ones too, and an empty form-typed body.
        await send(path, {
          pairs: [
            ...Object.entries(base),
            ...paramNames(path)
              .filter((name) => !(name in base))
              .map((name): [string, string] => [name, '']),
          ],
          lan: 'en_US',
          token,
          body: { type: 'application/x-www-form-urlencoded', payload: '' },
          label: 'empty extras',
        }),
      ]
      walked.add(path)
      const seen = answers.map((a) => `${a.status} ${a.body?.reason ?? ''}`)
      if (new Set(seen).size !== 1) differ.push(`${path}: ${seen.join(' | ')}`)
    }
    expect(differ).toEqual([])
  })

  test('a malformed or odd URL on any route gets the envelope with the production headers', async () => {
    const wrong: string[] = []
    for (const path of ALL_ROUTES) {
      for (const url of [`/api/${path}%c0%ae`, `/api/${path}/%ff`, `/api/%c0%ae/${path}`]) {
        const res = await t.app.inject({ method: 'POST', url, headers: { lan: 'ja_JP' } })
        const body = res.json() as { code?: number; reason?: string; msg?: string }
        const ok =
          res.statusCode >= 400 &&
          res.statusCode < 500 &&
          body.code === res.statusCode &&
          body.reason !== undefined &&
          body.msg?.startsWith(reasonMessage(body.reason as Reason, 'ja')) &&
          res.headers['x-content-type-options'] === 'nosniff' &&
          String(res.headers['content-security-policy']).includes("default-src 'self'") &&
          res.headers['cache-control'] === 'no-store'
        if (!ok) wrong.push(`${url}: ${res.statusCode} ${res.body.slice(0, 80)}`)
      }
    }
    expect(wrong).toEqual([])
  })

  test("the malleable twin of a wallet's signature signs nobody in or up", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const message = buildLoginMessage(Date.now())
    const signature = await wallet.signMessage({ message })
    const twin = malleableTwin(signature)
    for (const path of ['user/register', 'user/logining'] as const) {
      const res = await call(
        t.app,
        path,
        { username: wallet.address, message, signature: twin, invitationCode: 'HOPE2026' },
        { ip: nextIp(), lang: 'en' },
      )
      walked.add(path)
      expect([path, res.status, res.body.reason]).toEqual([path, 401, 'signature_invalid'])
    }
  })

  test('the sweep walked every route of the contract', () => {
    expect([...walked].sort()).toEqual([...ALL_ROUTES].sort())
  })

  test('no money moved and the ledger verifies clean', async () => {
    expect(await snapshot()).toEqual(before)
    expect((await verifyLedger(t.db.pool)).problems).toEqual([])
  })
})
