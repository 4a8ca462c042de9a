import { randomBytes } from 'node:crypto'
import {
  buildLoginMessage,
  parseAmount,
  LAN_HEADER,
  type Envelope,
  type Lang,
  type OperatorRole,
  type OperatorSession,
  type OutflowKind,
  type OutflowTypedData,
  type RouteParams,
  type RoutePath,
} from '@hope/api'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { afterAll, beforeAll, inject } from 'vitest'
import { buildApp } from '../app.ts'
import { devKey, LOCAL_ROLES } from '../chain/local-chain.ts'
import { localKeyPort } from '../signer/sign-port.ts'
import { createSigner, type PayoutSigner } from '../signer/signer.service.ts'
import type { ChainConnection } from '../chain/chain.service.ts'
import { loadConfig, loadDbTimeouts, type SignerCaps } from '../config.ts'
import { migrate } from '../db/migrate.ts'
import { openDatabase, type Database } from '../db/pool.ts'
import { seedDemo } from '../db/seed.ts'
import { APPLY_SQL, legArrays } from '../modules/ledger/ledger.repository.ts'
import { hotp, totpStep } from '../lib/totp.ts'
import { openSecret } from '../lib/seal.ts'
import { loadSecretKey } from '../modules/operator/operator.secret.ts'

import { DEMO_ROOT } from '../db/seed.ts'
import type { LimitStore } from '../lib/limit-store.ts'

export { DEMO_ROOT }
const DEMO_ROOT_NAME: string = DEMO_ROOT.userName

export interface DatabaseTarget {
  name: string
  /** A server-level URL; each test file creates its own database on it. */
  url: string
}

/** The embedded PostgreSQL always; the external one too when TEST_DATABASE_URL is set. */
export function databaseTargets(): DatabaseTarget[] {
  const targets = [{ name: 'embedded PostgreSQL', url: inject('embeddedDatabaseUrl') }]
  if (process.env.TEST_DATABASE_URL)
    targets.push({ name: 'TEST_DATABASE_URL', url: process.env.TEST_DATABASE_URL })
  return targets
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

export interface TestDatabase extends Database {
  url: string
  drop(): Promise<void>
}

/** A new, migrated and seeded database of its own on the target server. */
export async function createTestDatabase(target: DatabaseTarget): Promise<TestDatabase> {
  const name = `hope_test_${process.pid}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: target.url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = withDatabase(target.url, name)
  // Migrated and seeded on a setup pool without limits, as at start; the tests then run on a
  // pool with the app's connection limits, so they hold in every test.
  const setup = openDatabase(url, 4, { stallMs: 0 })
  try {
    await migrate(setup.pool)
    await seedDemo(setup.pool)
  } finally {
    await setup.close()
  }
  const database = openDatabase(url, 10, { timeouts: loadDbTimeouts(process.env) })
  return {
    ...database,
    url,
    async drop() {
      await database.close()
      const a = new pg.Client({ connectionString: target.url })
      await a.connect()
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await a.end()
    },
  }
}

/** The key sealing operators' authenticator secrets in test apps (no key file is written). */
export const TEST_OPERATOR_SECRET_KEY = '5e'.repeat(32)
/** The key tests seal stored proofs of liabilities with. */
export const SEAL_KEY = Buffer.alloc(32, 0x7c)
export const TEST_POR_SEAL_KEY = SEAL_KEY.toString('hex')

export interface TestAppOptions {
  now?: () => number
  env?: NodeJS.ProcessEnv
  chain?: ChainConnection
  limits?: LimitStore
  /** pino options; no logging when absent. */
  logger?: Record<string, unknown>
}

export async function buildTestApp(
  database: Database,
  opts: TestAppOptions = {},
): Promise<FastifyInstance> {
  const config = {
    ...loadConfig({
      PUBLIC_URL: 'http://hope.test',
      OPERATOR_SECRET_KEY: TEST_OPERATOR_SECRET_KEY,
      POR_SEAL_KEY: TEST_POR_SEAL_KEY,
      ...opts.env,
    }),
    webDist: undefined,
  }
  return buildApp({
    config,
    database,
    logger: opts.logger ?? false,
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.chain ? { chain: opts.chain } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
  })
}

/**
 * A fresh database of the target's for the tests of the describe block this is called in: made
 * before them, dropped after them. `db` is there for the hooks registered after this call.
 */
export function useTestDatabase(target: DatabaseTarget): { db: TestDatabase } {
  const t = {} as { db: TestDatabase }
  beforeAll(async () => {
    t.db = await createTestDatabase(target)
  })
  afterAll(async () => {
    await t.db?.drop()
  })
  return t
}

/** The app and database of a describe block's tests (`useTestApp`). */
export interface TestApp {
  db: TestDatabase
  app: FastifyInstance
  /** `call` on the app as `who`: a test user, or an operator's token. */
  as<P extends RoutePath, T = unknown>(
    who: { token: string } | string,
    path: P,
    params?: Partial<Record<keyof RouteParams<P> | string, unknown>>,
    opts?: Omit<CallOptions, 'token'>,
  ): Promise<CallResult<T>>
}

/**
 * A test app on a fresh database of the target's for the tests of the describe block this is
 * called in: built before them (with `opts`, or what `opts(db)` gives then), closed and its
 * database dropped after them. `db` and `app` are there for the hooks registered after this call.
 */
export function useTestApp(
  target: DatabaseTarget,
  opts: TestAppOptions | ((db: TestDatabase) => TestAppOptions) = {},
): TestApp {
  const t = {
    as: (who, path, params, opts) =>
      call(t.app, path, params, { ...opts, token: typeof who === 'string' ? who : who.token }),
  } as TestApp
  beforeAll(async () => {
    t.db = await createTestDatabase(target)
    t.app = await buildTestApp(t.db, typeof opts === 'function' ? opts(t.db) : opts)
  })
  afterAll(async () => {
    await t.app?.close()
    await t.db?.drop()
  })
  return t
}

/** A wallet that signs for real with a fresh random key. */
export function newWallet(): PrivateKeyAccount {
  return privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`)
}

export async function signLogin(wallet: PrivateKeyAccount, atMs = Date.now()) {
  rememberWallet(wallet)
  const message = buildLoginMessage(atMs)
  return { username: wallet.address, message, signature: await wallet.signMessage({ message }) }
}

export interface CallResult<T> {
  status: number
  body: Envelope<T>
  headers: Record<string, unknown>
}

/** The wallets of the users tests registered, by address: they sign those users' outflows. */
const testWallets = new Map<string, PrivateKeyAccount>()

/** Lets `call` sign this wallet's outflows as the web app has its wallet do. */
export function rememberWallet(wallet: PrivateKeyAccount): void {
  testWallets.set(wallet.address.toLowerCase(), wallet)
}

const OUTFLOW_PATHS: Partial<Record<RoutePath, OutflowKind>> = {
  'userAccount/withdraw': 'withdraw',
  'userAccount/transfer': 'transfer',
  'game/activate': 'activate',
}

/**
 * The wallet's signature of an outflow, as the web app asks for it at the confirmation step:
 * the server's typed data signed by the user's own wallet. Nothing when the typed data is
 * refused (the test sends bad values) or the user's wallet is not a test's.
 */
export async function signOutflow(
  app: FastifyInstance,
  kind: OutflowKind,
  params: Record<string, unknown>,
  token: string,
  wallet?: PrivateKeyAccount,
): Promise<{ signature: `0x${string}`; deadline: number } | null> {
  const res = await call<'userAccount/outflowTypedData', OutflowTypedData>(
    app,
    'userAccount/outflowTypedData',
    {
      kind,
      address: params.address,
      // An activation names its level; the server writes its price.
      ...(kind === 'activate' ? { level: params.level } : { amount: params.amount }),
      idempotencyKey: params.idempotencyKey,
    },
    { token },
  )
  if (res.body.code !== 200) return null
  const data = res.body.data
  const signer = wallet ?? testWallets.get(data.message.from)
  if (!signer) return null
  return {
    signature: await signer.signTypedData({
      ...data,
      message: { ...data.message, deadline: BigInt(data.message.deadline) },
    }),
    deadline: data.message.deadline,
  }
}

export interface CallOptions {
  token?: string
  lang?: Lang
  ip?: string
  sign?: boolean
  userAgent?: string
}

/**
 * Calls `POST /api/<path>` the way the web app does: payload in the query string. A
 * registered test user's withdrawal, transfer or activation is signed by their wallet, as in
 * the app, unless the call says `sign: false` (a thief's request) or carries its own signature.
 */
export async function call<P extends RoutePath, T = unknown>(
  app: FastifyInstance,
  path: P,
  params: Partial<Record<keyof RouteParams<P> | string, unknown>> = {},
  opts: CallOptions = {},
): Promise<CallResult<T>> {
  // An operator signs in with their authenticator's code; a test that gives none gets it made.
  if (path === 'admin/login' && !('code' in params))
    params = { ...params, code: await operatorCode(app, String(params.username)) }
  const outflow = OUTFLOW_PATHS[path]
  if (outflow && opts.token && opts.sign !== false && !('signature' in params)) {
    const signed = await signOutflow(app, outflow, params, opts.token)
    if (signed) params = { ...params, ...signed }
  }
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.append(k, String(v))
  const res = await app.inject({
    method: 'POST',
    url: `/api/${path}${query.size ? `?${query}` : ''}`,
    headers: {
      'content-type': 'application/json;charset=UTF-8',
      ...(opts.lang ? { lan: LAN_HEADER[opts.lang] } : {}),
      ...(opts.token ? { token: opts.token } : {}),
      ...(opts.userAgent ? { 'user-agent': opts.userAgent } : {}),
    },
    ...(opts.ip ? { remoteAddress: opts.ip } : {}),
  })
  return { status: res.statusCode, body: res.json() as Envelope<T>, headers: res.headers }
}

/**
 * The code an operator's authenticator app shows now, or the next step's when this step's was
 * used already (the server accepts one step either side), so one operator can sign in twice
 * within 30 seconds; '000000' for an operator without a secret.
 */
export async function operatorCode(
  app: FastifyInstance,
  username: string,
  nowMs = Date.now(),
): Promise<string> {
  const row = (
    await app.db.pool.query<{ secret: string | null; last: string | null }>(
      'SELECT totp_secret AS secret, totp_last_step::text AS last FROM operators WHERE username = $1',
      [username],
    )
  ).rows[0]
  const secret = row?.secret ? openSecret(loadSecretKey(app.config), username, row.secret) : null
  if (!secret) return '000000'
  const now = totpStep(nowMs)
  const last = row?.last ? BigInt(row.last) : -1n
  return hotp(secret, last < now ? now : now + 1n)
}

/** Signs an operator in with their password and authenticator code: their session token. */
export async function signInOperator(
  app: FastifyInstance,
  username: string,
  password = `${username}-password-1`,
): Promise<string> {
  const res = await call<'admin/login', OperatorSession>(app, 'admin/login', { username, password })
  if (res.body.code !== 200) throw new Error(`operator sign-in failed: ${JSON.stringify(res.body)}`)
  return res.body.data.token
}

/** Makes an operator with the role (password `<username>-password-1` unless given) and signs them in. */
export async function newOperator(
  app: FastifyInstance,
  username: string,
  role: OperatorRole,
  password = `${username}-password-1`,
): Promise<string> {
  await app.services.operators.create(username, password, role)
  return signInOperator(app, username, password)
}

/** A user row made directly (no signature), under `inviterId` (the demo root when absent). */
export async function insertTestUser(
  pool: pg.Pool,
  opts: { inviterId?: number; address?: string; location?: 1 | 2 | 3 } = {},
): Promise<{ id: number; userName: string }> {
  const userName = (opts.address ?? `0x${randomBytes(20).toString('hex')}`).toLowerCase()
  const res = await pool.query<{ id: string }>(
    `INSERT INTO users (user_name, nick_name, referral_code, inviter_id, location)
     VALUES ($1, 'test', upper(substr(md5(random()::text), 1, 10)),
             coalesce($2, (SELECT id FROM users WHERE inviter_id IS NULL ORDER BY id LIMIT 1)), $3)
     RETURNING id`,
    [userName, opts.inviterId ?? null, opts.location ?? 1],
  )
  return { id: Number(res.rows[0]!.id), userName }
}

/** A NUMERIC(38,18) string from the database as USDT minor units (6 decimals), sign kept. */
export function usdtUnits(s: string): bigint {
  const negative = s.startsWith('-')
  const v = parseAmount(negative ? s.slice(1) : s, 18)! / 10n ** 12n
  return negative ? -v : v
}

/** Credits a user account from the treasury (log 5), as an operator's backend recharge does. */
export async function fundAccount(
  pool: pg.Pool,
  userId: number,
  amount: string,
  kind: 'usdt' | 'community' | 'shareholder' | 'node' | 'split' = 'usdt',
): Promise<void> {
  const accounts = await pool.query<{ id: string; treasury: string }>(
    `SELECT a.id, (SELECT t.id FROM ledger_accounts t WHERE t.user_id IS NULL AND t.kind = 'treasury' AND t.currency = a.currency) AS treasury
     FROM ledger_accounts a WHERE a.user_id = $1 AND a.kind = $2`,
    [userId, kind],
  )
  const { id, treasury } = accounts.rows[0]!
  await pool.query(APPLY_SQL, [
    `test-fund:${randomBytes(8).toString('hex')}`,
    Buffer.alloc(1),
    ...legArrays([
      { kind: 'posted', debit: Number(treasury), credit: Number(id), amount, logType: 5 },
    ]),
  ])
}

/** A maker of idempotency keys, each one new: `<prefix>-<time>-<count>`. */
export function keyMaker(prefix: string): () => string {
  let n = 0
  return () => `${prefix}-${Date.now()}-${++n}`
}

/**
 * A maker of client addresses in `10.<subnet>.0.0/16`, each one new: a fresh address per request
 * keeps the per-IP limits out of a test's way.
 */
export function ipMaker(subnet: number): () => string {
  let n = 0
  return () => {
    n += 1
    return `10.${subnet}.${Math.floor(n / 250)}.${n % 250}`
  }
}

/** A user `registerUser` registered: their wallet, session token, id and name. */
export type TestUser = Awaited<ReturnType<typeof registerUser>>

let registerIp = 0
/** Registers a wallet through the API (under `inviter`, the demo root by default) and signs in. */
export async function registerUser(
  app: FastifyInstance,
  inviter: string = DEMO_ROOT_NAME,
): Promise<{ wallet: PrivateKeyAccount; token: string; id: number; userName: string }> {
  const wallet = newWallet()
  rememberWallet(wallet)
  registerIp += 1
  const res = await call<'user/register', { token: string; id: number; userName: string }>(
    app,
    'user/register',
    { ...(await signLogin(wallet)), pusername: inviter },
    { ip: `10.250.${Math.floor(registerIp / 250) % 250}.${registerIp % 250}` },
  )
  if (res.body.code !== 200) throw new Error(`register failed: ${JSON.stringify(res.body)}`)
  return {
    wallet,
    token: res.body.data.token,
    id: res.body.data.id,
    userName: res.body.data.userName,
  }
}

/**
 * The signer as the app runs it, in this process, with the local chain's hot wallet key (and
 * caps far above any test's payouts unless given).
 */
export function devPayoutSigner(
  pool: pg.Pool,
  caps: SignerCaps = { hourUsdt: '100000000', dayUsdt: '100000000' },
): PayoutSigner {
  return createSigner({ pool, hotWallet: localKeyPort(devKey(LOCAL_ROLES.hotWallet)), caps })
}
