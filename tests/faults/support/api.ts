import { randomBytes } from 'node:crypto'
import {
  buildLoginMessage,
  formatAmount,
  type Envelope,
  type LoginResult,
  type OperatorSession,
  type OutflowKind,
  type OutflowTypedData,
  type Withdrawal,
} from '@hope/api'
import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount, type LocalAccount } from 'viem/accounts'
import { base32Decode, hotp, totpStep } from '../../../apps/server/src/lib/totp.ts'
import { runScript, type HopeServer } from './server.ts'
import { DEMO_ROOT } from '../../../apps/server/src/db/seed.ts'

export interface Answer<T> {
  /** HTTP status; 0 when the connection failed, -1 when no answer came in time. */
  status: number
  body: Envelope<T> | null
  /** The network failure, when there was no answer. */
  error?: string
  ms: number
}

/** Requests this test file made: answered by the app, or not (refused connection, time-out). */
export const requestStats = { answered: 0, unanswered: 0 }

/** The wallets of the users these tests registered, by session token. */
const walletsByToken = new Map<string, LocalAccount>()

const OUTFLOWS: Record<string, OutflowKind> = {
  'userAccount/withdraw': 'withdraw',
  'userAccount/transfer': 'transfer',
  'game/activate': 'activate',
}

/**
 * `POST /api/<path>` with the payload in the query string, as the web app calls it. A
 * withdrawal, transfer or activation of a user registered here is signed by the user's wallet first
 * (EIP-712, as the app asks the wallet at the confirmation step); when the typed data cannot be
 * had, that answer is the request's.
 */
export async function call<T = unknown>(
  baseUrl: string,
  path: string,
  params: Record<string, string> = {},
  opts: { token?: string; lan?: string; timeoutMs?: number } = {},
): Promise<Answer<T>> {
  const wallet = opts.token ? walletsByToken.get(opts.token) : undefined
  const kind = OUTFLOWS[path]
  if (kind && wallet && !params.signature) {
    const typed = await call<OutflowTypedData>(
      baseUrl,
      'userAccount/outflowTypedData',
      { kind, ...params },
      opts,
    )
    if (!succeeded(typed)) return typed as unknown as Answer<T>
    const data = typed.body!.data
    const signature = await wallet.signTypedData({
      ...data,
      message: { ...data.message, deadline: BigInt(data.message.deadline) },
    })
    params = { ...params, signature, deadline: String(data.message.deadline) }
  }
  return send<T>(baseUrl, path, params, opts)
}

async function send<T>(
  baseUrl: string,
  path: string,
  params: Record<string, string>,
  opts: { token?: string; lan?: string; timeoutMs?: number },
): Promise<Answer<T>> {
  const started = Date.now()
  const headers: Record<string, string> = {}
  if (opts.token) headers.token = opts.token
  if (opts.lan) headers.lan = opts.lan
  const query = new URLSearchParams(params)
  try {
    const res = await fetch(`${baseUrl}/api/${path}${query.size ? `?${query}` : ''}`, {
      method: 'POST',
      headers,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000),
    })
    const text = await res.text()
    let body: Envelope<T> | null = null
    try {
      body = JSON.parse(text) as Envelope<T>
    } catch {
      body = null
    }
    requestStats.answered += 1
    return { status: res.status, body, ms: Date.now() - started }
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } }
    const timedOut = err.name === 'TimeoutError'
    requestStats.unanswered += 1
    return {
      status: timedOut ? -1 : 0,
      body: null,
      error: timedOut ? 'timeout' : (err.cause?.code ?? err.message),
      ms: Date.now() - started,
    }
  }
}

export const succeeded = (a: Answer<unknown>) => a.status === 200 && a.body?.code === 200

/** Calls and returns `data`, throwing with the answer when it is not a success. */
export async function ok<T>(
  baseUrl: string,
  path: string,
  params: Record<string, string> = {},
  token?: string,
): Promise<T> {
  const a = await call<T>(baseUrl, path, params, token ? { token } : {})
  if (!succeeded(a))
    throw new Error(`${path}: ${a.status} ${a.error ?? JSON.stringify(a.body)}`.slice(0, 500))
  return a.body!.data as T
}

/** A fresh idempotency key. */
export const newKey = (prefix = 'k') => `${prefix}-${randomBytes(9).toString('hex')}`

export interface Operators {
  /** role finance: credits, withdrawal reviews, settlement */
  finance: string
  /** role admin: settings */
  admin: string
}

async function createOperator(
  server: HopeServer,
  username: string,
  role: string,
  env: NodeJS.ProcessEnv,
) {
  const made = await runScript(
    'create-operator.ts',
    server.dataDir,
    [username, role, '--json'],
    env,
  )
  if (made.code !== 0) throw new Error(`create-operator ${username}: ${made.stderr}`)
  const line = JSON.parse(made.stdout.trim().split('\n').at(-1)!) as {
    password: string
    otpauthUri: string
  }
  const secret = base32Decode(new URL(line.otpauthUri).searchParams.get('secret')!)!
  const session = await ok<OperatorSession>(server.baseUrl, 'admin/login', {
    username,
    password: line.password,
    code: hotp(secret, totpStep(Date.now())),
  })
  return session.token
}

/**
 * A finance and an admin operator, made with `create-operator --json` as an operator would
 * (with `env` for an app on an external database), signed in with password and authenticator
 * code. Their sessions outlive app restarts.
 */
export async function createOperators(
  server: HopeServer,
  env: NodeJS.ProcessEnv = {},
): Promise<Operators> {
  const [finance, admin] = await Promise.all([
    createOperator(server, 'faults-finance', 'finance', env),
    createOperator(server, 'faults-admin', 'admin', env),
  ])
  return { finance, admin }
}

/** Changes one setting through the operator API (value as JSON text). */
export async function setSetting(
  server: HopeServer,
  ops: Operators,
  key: string,
  value: string,
): Promise<void> {
  await ok(server.baseUrl, 'admin/updateSetting', { key, value, reason: 'fault tests' }, ops.admin)
}

/**
 * Payouts confirmed after two blocks, and sent to fresh addresses at once: no new-address
 * hold, since the payouts of these tests go to fresh addresses and are approved at once.
 */
export async function allowFreshPayouts(server: HopeServer, ops: Operators): Promise<void> {
  await setSetting(server, ops, 'chainConfirmations', '2')
  await setSetting(server, ops, 'newAddressHoldHours', '0')
}

export interface User {
  account: LocalAccount
  /** the lower-cased address */
  userName: string
  token: string
}

/** Registers a wallet (a fresh one unless given) under `inviter`, signing in with it. */
export async function registerUser(
  server: HopeServer,
  inviter: string,
  account: LocalAccount = privateKeyToAccount(generatePrivateKey()),
): Promise<User> {
  const message = buildLoginMessage(Date.now())
  const signature = await account.signMessage({ message })
  const login = await ok<LoginResult>(server.baseUrl, 'user/register', {
    username: account.address,
    pusername: inviter,
    message,
    signature,
  })
  walletsByToken.set(login.token, account)
  return { account, userName: account.address.toLowerCase(), token: login.token }
}

/**
 * `count` members in a line under the demo root, each invited by the one before: everyone
 * after a member is in that member's downline.
 */
export async function registerLine(server: HopeServer, count: number): Promise<User[]> {
  const line: User[] = []
  for (let i = 0; i < count; i++)
    line.push(await registerUser(server, line.at(-1)?.userName ?? DEMO_ROOT.userName))
  return line
}

/** Backend recharge of a user account (log 5) by the finance operator. */
export async function credit(
  server: HopeServer,
  ops: Operators,
  userName: string,
  amount: string,
  account = 'usdt',
): Promise<void> {
  await ok(
    server.baseUrl,
    'admin/credit',
    { userName, account, amount, reason: 'fault tests', idempotencyKey: newKey('credit') },
    ops.finance,
  )
}

/** Asks for a withdrawal of `units` micro-USDT to a fresh address: its id and the address. */
export async function withdrawToFresh(
  server: HopeServer,
  user: User,
  units: bigint,
): Promise<{ id: number; to: Address }> {
  const to = privateKeyToAccount(generatePrivateKey()).address
  const w = await ok<Withdrawal>(
    server.baseUrl,
    'userAccount/withdraw',
    { amount: formatAmount(units, 6), address: to, idempotencyKey: newKey('wd') },
    user.token,
  )
  return { id: w.id, to }
}

/** The operator signed in as `operatorToken` approves withdrawal `id`. */
export async function approveWithdrawal(
  server: HopeServer,
  operatorToken: string,
  id: number,
): Promise<void> {
  await ok(
    server.baseUrl,
    'admin/reviewWithdraw',
    { id: String(id), decision: 'approve' },
    operatorToken,
  )
}

/** Runs `work` over `items` with at most `concurrency` at a time. */
export async function inParallel<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++
        results[i] = await work(items[i]!, i)
      }
    }),
  )
  return results
}
