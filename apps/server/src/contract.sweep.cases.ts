import { LAN_HEADER, ROUTES, type RoutePath } from '@hope/api'
import fc from 'fast-check'

/** An address no user holds: a base payload that names it moves nothing even when accepted. */
export const NOBODY = `0x${'ab'.repeat(20)}`
/** An id no row has (the largest the contract takes), for routes that name a row. */
export const NO_ID = '999999999'

/**
 * One harmless, valid payload per route: each field has a form the contract accepts, and the
 * route, given it, changes no money (it names no one, or a caller without funds). The sweep
 * spoils one field of it at a time, so the field under test is the only thing wrong. Typed by
 * route, so a new route in the contract does not compile until it has a base here.
 */
export const BASES: Record<RoutePath, Record<string, string>> = {
  'user/getUserInfoByName': { userName: NOBODY },
  'user/lookup': { userName: NOBODY },
  'user/checkInvitationCode': { invitationCode: 'NOPE0000' },
  'user/register': {
    username: NOBODY,
    message: 'HOPE Login1',
    signature: `0x${'11'.repeat(65)}`,
    invitationCode: 'NOPE0000',
    location: '1',
  },
  'user/loginMessage': { username: NOBODY },
  'user/logining': {
    username: NOBODY,
    message: 'HOPE Login1',
    signature: `0x${'11'.repeat(65)}`,
    location: '1',
  },
  'user/getUserInfo': {},
  'user/logout': {},
  'userAccount/balance': {},
  'userAccount/balanceDetail': { account: 'usdt', logType: '5', pageSize: '10' },
  'userAccount/enableCoins': {},
  'userAccount/transfer': { address: NOBODY, amount: '1', idempotencyKey: 'sweep-base-0001' },
  'userAccount/notices': { pageNum: '1', pageSize: '10' },
  'userAccount/readNotices': {},
  'userAccount/outflowTypedData': {
    kind: 'transfer',
    address: NOBODY,
    amount: '1',
    idempotencyKey: 'sweep-base-0004',
  },
  'userAccount/checkAddress': { address: NOBODY },
  'userAccount/collect': { account: 'node', amount: '1', idempotencyKey: 'sweep-base-0002' },
  'userAccount/getAddress': {},
  'userAccount/figures': {},
  'userAccount/recharge': { txHash: `0x${'cd'.repeat(32)}` },
  'userAccount/myRecharge': { pageNum: '1', pageSize: '10' },
  'userAccount/withdraw': { amount: '20', idempotencyKey: 'sweep-base-0003' },
  'userAccount/checkWithdrawAddress': { address: NOBODY },
  'userAccount/myWithDraw': { pageNum: '1', pageSize: '10' },
  'userAccount/cancelWithdraw': { id: NO_ID },
  'main/getETLDPrice': {},
  'main/getETHPrice': {},
  'main/priceHistory': { symbol: 'ETH', range: '24h' },
  'main/ranking': { kind: 'inviters', pageSize: '10' },
  'game/info': {},
  'game/change': { amount: '100', idempotencyKey: 'sweep-base-0004' },
  'game/myStake': { pageNum: '1', pageSize: '10' },
  'game/sqChange': { amount: '1', idempotencyKey: 'sweep-base-0005' },
  'game/stakeList': { pageNum: '1', pageSize: '10' },
  'game/groupTj': {},
  'game/groupZt': { pageNum: '1', pageSize: '10' },
  'game/earnings': {},
  'game/vipInfo': {},
  'game/upgrade': { level: '1', idempotencyKey: 'sweep-base-0006' },
  'game/buyNode': { type: '1', idempotencyKey: 'sweep-base-0007' },
  'game/activate': {
    address: NOBODY,
    level: '1',
    location: '1',
    idempotencyKey: 'sweep-base-0008',
  },
  'main/news': { pageNum: '1', pageSize: '10', type: '1' },
  'main/newInfo': { id: NO_ID },
  'main/bannnerInfo': {},
  'main/school': { pageNum: '1', pageSize: '10', kind: 'article' },
  'main/schoolInfo': { id: NO_ID },
  'main/contact': {},
  'chat/history': { beforeId: '1', pageSize: '10' },
  'chat/send': { clientId: 'sweep-client-0001', body: 'hello' },
  'chat/read': { upToId: '1' },
  'chat/unread': {},
  'admin/chatList': { beforeId: '1', pageSize: '10' },
  'admin/chatHistory': { userName: NOBODY, beforeId: '1', pageSize: '10' },
  'admin/chatReply': { userName: NOBODY, clientId: 'sweep-client-0002', body: 'hello' },
  'admin/chatRead': { userName: NOBODY, upToId: '1' },
  'admin/banners': {},
  'admin/saveBanner': { id: NO_ID, lang: 'en', title: 't', link: '', sort: '1' },
  'admin/deleteBanner': { id: NO_ID },
  'admin/newsList': { pageNum: '1', pageSize: '10', type: '1' },
  'admin/saveNews': { id: NO_ID, lang: 'en', title: 't', type: '1', published: 'false' },
  'admin/deleteNews': { id: NO_ID },
  'admin/schoolList': { pageNum: '1', pageSize: '10' },
  'admin/saveSchool': { id: NO_ID, lang: 'en', title: 't', kind: 'article', published: 'false' },
  'admin/deleteSchool': { id: NO_ID },
  'admin/deleteTranslation': { kind: 'news', id: NO_ID, lang: 'en' },
  'admin/upload': {},
  'admin/login': { username: 'sweep-nobody', password: 'wrong-password', code: '000000' },
  'admin/credit': {
    userName: NOBODY,
    account: 'usdt',
    amount: '1',
    reason: 'sweep',
    idempotencyKey: 'sweep-base-0009',
  },
  'admin/debit': {
    userName: NOBODY,
    account: 'usdt',
    amount: '1',
    reason: 'sweep',
    idempotencyKey: 'sweep-base-0010',
  },
  'admin/reviewWithdraw': { id: NO_ID, decision: 'reject', reason: 'sweep' },
  'admin/grantShareholder': { userName: NOBODY, type: '1', reason: 'sweep' },
  'admin/flagRobot': { userName: NOBODY, robot: 'true', reason: 'sweep' },
  'admin/setEthPrice': { price: '2000', reason: 'sweep' },
  'admin/settle': { day: '2000-01-01' },
  'admin/settlementRun': { id: NO_ID },
  'admin/me': {},
  'admin/logout': {},
  'admin/dashboard': {},
  'admin/signInsByDay': {},
  'admin/resolveAlarm': { id: NO_ID, reason: 'sweep' },
  'admin/checkLedger': {},
  'admin/users': { pageNum: '1', pageSize: '10', q: 'nobody' },
  'admin/userTree': { userName: NOBODY, pageNum: '1', pageSize: '10' },
  'admin/withdrawals': { pageNum: '1', pageSize: '10', status: '0', q: 'nobody' },
  'admin/bulkReviewWithdraw': { ids: NO_ID, decision: 'reject', reason: 'sweep' },
  'admin/deposits': { pageNum: '1', pageSize: '10', status: 'credited', q: 'nobody' },
  'admin/settings': {},
  'admin/updateSetting': { key: 'no_such_setting', value: '1', reason: 'sweep' },
  'admin/settingHistory': { key: 'no_such_setting', pageNum: '1', pageSize: '10' },
  'admin/settlementRuns': { pageNum: '1', pageSize: '10' },
  'admin/audit': { action: 'nothing', pageNum: '1', pageSize: '10' },
  'por/latest': {},
  'por/myProof': { snapshotId: NO_ID },
  'por/myStatement': { snapshotId: NO_ID },
  'admin/porSnapshots': { pageNum: '1', pageSize: '10' },
  'admin/porPublish': {},
}

/** The names of a route's query parameters, from its contract schema. */
export function paramNames(path: RoutePath): string[] {
  const schema = ROUTES[path].params as unknown as { shape?: Record<string, unknown> }
  if (!schema.shape) throw new Error(`${path}: params is not an object schema`)
  return Object.keys(schema.shape)
}

const OVERSIZED = 100_000

/**
 * Values the issue names, each tried in every parameter of every route: wrong types, signs and
 * magnitudes no amount or id may take, injection fragments, oversized and odd unicode text.
 */
export const NAMED_VALUES: readonly (readonly [string, string])[] = [
  ['empty', ''],
  ['blank', '   '],
  ['wrong type: word', 'abc'],
  ['wrong type: boolean', 'true'],
  ['wrong type: json', '{"a":1}'],
  ['wrong type: array text', '[1,2]'],
  ['wrong type: null', 'null'],
  ['negative', '-1'],
  ['negative fraction', '-0.5'],
  ['zero', '0'],
  ['zero with decimals', '0.000000'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['-Infinity', '-Infinity'],
  ['1e309', '1e309'],
  ['exponent', '1e3'],
  ['hex number', '0x10'],
  ['40 digits', '1'.repeat(40)],
  ['19 decimals', `1.${'1'.repeat(19)}`],
  ['comma decimal', '1,5'],
  ['full-width digits', '１２'],
  ['sql', "' OR 1=1 --"],
  ['sql stacked', '1; DROP TABLE users; --'],
  ['script', '<script>alert(1)</script>'],
  ['attribute break', '"><img src=x onerror=alert(1)>'],
  ['template', '${7*7}{{7*7}}'],
  ['path', '../../../etc/passwd'],
  ['oversized', 'x'.repeat(OVERSIZED)],
  ['oversized digits', '9'.repeat(OVERSIZED)],
  ['rtl override', '\u202Eevil\u202C'],
  ['emoji', '😀🚀💸'],
  ['nul', 'a\u0000b'],
  ['only nul', '\u0000'],
  ['zero width', '\u200B\uFEFF'],
  ['control', '\u0007\u001b[31m'],
  ['lone surrogate', '\uD800'],
  ['impossible day', '2026-02-30'],
  ['month 13', '2026-13-45'],
  ['year 0', '0000-01-01'],
]

/**
 * Named values a parameter's schema lets through by form, which the server must still refuse
 * there: a settlement day that is no day of the calendar.
 */
export const REFUSED_BY_MEANING: Readonly<Record<string, readonly string[]>> = {
  day: ['2026-02-30', '2026-13-45', '0000-01-01'],
}

/** Things a generated value may be built from, beyond the named values. */
const FRAGMENTS = [
  "'",
  '"',
  ';',
  '--',
  '/*',
  '<',
  '>',
  '&',
  '%',
  '%00',
  '\\',
  '\u0000',
  '\u202E',
  '😀',
  'é',
  'ı',
  '\u0301',
  '-',
  '.',
  'e',
  '9',
  '0',
  ' ',
  '\n',
  '\r\n',
  '\t',
]

/**
 * A query value generated to be odd: a named value, a mix of fragments, or any text at all.
 * Never a plain small number, which could be the real id of a row the sweep must not touch.
 */
export const oddValue: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom(...NAMED_VALUES.map(([, v]) => v)),
    fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 12 }).map((a) => a.join('')),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.bigInt({ min: -(10n ** 45n), max: 10n ** 45n }).map(String),
    fc.double().map(String),
    fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 25n }), fc.bigInt({ min: 0n, max: 10n ** 25n }))
      .map(([a, b]) => `${a}.${b.toString().padStart(19, '0')}`),
  )
  .filter((v) => !/^\d{1,9}$/.test(v.trim()))

/** Which token a request carries. */
export type TokenKind = 'none' | 'user' | 'operator' | 'forged'

export interface Probe {
  /** The query string as sent (pairs in order; a key may repeat). */
  pairs: [string, string][]
  lan: string | undefined
  token: TokenKind
  /** A body beside the query string (the app reads none except `admin/upload`'s image). */
  body?: { type: string; payload: string | Buffer }
  /** What was done, for the failure message. */
  label: string
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** The query object as Fastify parses it: a repeated key becomes an array. */
export function queryOf(pairs: readonly [string, string][]): Record<string, string | string[]> {
  const q: Record<string, string | string[]> = Object.create(null) as Record<
    string,
    string | string[]
  >
  for (const [k, raw] of pairs) {
    // Text travels as UTF-8 in the URL: a lone surrogate arrives as U+FFFD.
    const v = raw.replace(LONE_SURROGATE, '\uFFFD')
    const seen = q[k]
    q[k] = seen === undefined ? v : Array.isArray(seen) ? [...seen, v] : [seen, v]
  }
  return q
}

export function urlOf(path: RoutePath, pairs: readonly [string, string][]): string {
  const query = new URLSearchParams()
  for (const [k, v] of pairs) query.append(k, v)
  return `/api/${path}${query.size ? `?${query}` : ''}`
}

const LAN_VALUES = [...Object.values(LAN_HEADER), 'xx_XX', 'EN_us', '']

/** The token a route needs, so that the failure tested is the payload's. */
export function rightToken(path: RoutePath): TokenKind {
  const auth = ROUTES[path].auth
  return auth === 'operator' ? 'operator' : auth ? 'user' : 'none'
}

/**
 * A generated probe of one route: each parameter kept from the base, dropped, replaced by an
 * odd value or repeated; odd extra keys; any `lan`; mostly the right token, sometimes another.
 */
export function probeOf(path: RoutePath): fc.Arbitrary<Probe> {
  const base = BASES[path]
  const names = paramNames(path)
  const field = (name: string) =>
    fc.oneof(
      {
        weight: 2,
        arbitrary: fc.constant<[string, string][]>(base[name] ? [[name, base[name]]] : []),
      },
      { weight: 1, arbitrary: fc.constant<[string, string][]>([]) },
      { weight: 4, arbitrary: oddValue.map((v): [string, string][] => [[name, v]]) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(oddValue, fc.constantFrom(base[name] ?? '1', '2'))
          .map(([a, b]): [string, string][] => [
            [name, b],
            [name, a],
          ]),
      },
    )
  const extra = fc.array(
    fc.tuple(fc.constantFrom('__proto__', 'constructor', 'toString', 'a[b]', '', 'x'), oddValue),
    { maxLength: 2 },
  )
  const token = fc.oneof(
    { weight: 6, arbitrary: fc.constant(rightToken(path)) },
    { weight: 1, arbitrary: fc.constantFrom<TokenKind>('none', 'user', 'operator', 'forged') },
  )
  const body = fc.option(
    fc.record({
      type: fc.constantFrom(
        'application/json',
        'text/plain',
        'image/png',
        'application/x-www-form-urlencoded',
      ),
      payload: fc.oneof(
        fc.constantFrom('{"broken', 'null', '[]', '"x"', '{"amount":"-1"}', 'a=1&a=2'),
        fc.string({ maxLength: 200 }),
      ),
    }),
    { freq: 5 },
  )
  return fc
    .record({
      fields: fc.tuple(...names.map(field)),
      extra,
      lan: fc.option(fc.constantFrom(...LAN_VALUES), { nil: undefined }),
      token,
      body,
    })
    .filter(
      ({ fields, extra }) =>
        // Something must be spoiled: the untouched base is the one valid payload.
        !(extra.length === 0 && names.every((n, i) => sameAsBase(fields[i]!, n, base[n]))),
    )
    .map(({ fields, extra, lan, token, body }) => ({
      pairs: [...fields.flat(), ...extra],
      lan,
      token,
      ...(body ? { body } : {}),
      label: 'generated',
    }))
}

function sameAsBase(pairs: [string, string][], name: string, value: string | undefined): boolean {
  if (value === undefined) return pairs.length === 0
  return pairs.length === 1 && pairs[0]![0] === name && pairs[0]![1] === value
}

/**
 * The fixed probes of one route: every named value in every parameter (the rest of the base
 * kept), each parameter left out, and each parameter repeated.
 */
export function namedProbes(path: RoutePath): Probe[] {
  const base = BASES[path]
  const token = rightToken(path)
  const probes: Probe[] = []
  const langs = Object.values(LAN_HEADER)
  let i = 0
  const others = (name: string) =>
    Object.entries(base).filter(([k]) => k !== name) as [string, string][]
  for (const name of paramNames(path)) {
    for (const [label, value] of NAMED_VALUES) {
      probes.push({
        pairs: [...others(name), [name, value]],
        lan: langs[i++ % langs.length],
        token,
        label: `${name}: ${label}`,
      })
    }
    probes.push({ pairs: others(name), lan: 'en_US', token, label: `${name}: missing` })
    probes.push({
      pairs: [...others(name), [name, base[name] ?? '1'], [name, base[name] ?? '2']],
      lan: 'en_US',
      token,
      label: `${name}: repeated`,
    })
  }
  // A route without parameters still gets odd keys, a repeated key and a body it never reads.
  probes.push({
    pairs: [...Object.entries(base), ['a', '1'], ['a', '2'], ['__proto__', '{"x":1}']],
    lan: 'en_US',
    token,
    label: 'unknown and repeated keys',
  })
  probes.push({
    pairs: Object.entries(base),
    lan: 'en_US',
    token,
    body: { type: 'application/json', payload: '{"broken' },
    label: 'malformed JSON body',
  })
  probes.push({
    pairs: Object.entries(base),
    lan: 'en_US',
    token,
    body: { type: 'application/json', payload: `{"x":"${'y'.repeat(70 * 1024)}"}` },
    label: 'body over the limit',
  })
  return probes
}
