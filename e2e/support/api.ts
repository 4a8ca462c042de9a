import { inject } from 'vitest'
import { TOTP_STEP_SECONDS, base32Decode, hotp, totpStep } from '../../apps/server/src/lib/totp.ts'
import type { E2eOperator } from './global-setup.ts'

const baseUrl = () => inject('baseUrl')

/** Calls the app's API the way the web app does: POST, payload in the query string. */
export async function api<T>(
  path: string,
  params: Record<string, string>,
  token?: string,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(`${baseUrl()}/api/${path}?${new URLSearchParams(params)}`, {
    method: 'POST',
    headers: token ? { ...headers, token } : headers,
  })
  const body = (await res.json()) as { code: number; msg: string; reason?: string; data: T }
  if (res.status !== 200 || body.code !== 200)
    throw Object.assign(new Error(`${path}: ${body.code} ${body.msg}`), { reason: body.reason })
  return body.data
}

/** The 6-digit code the operator's authenticator app shows at `atMs`. */
export function totpCode(totpSecret: string, atMs = Date.now()): string {
  return hotp(base32Decode(totpSecret)!, totpStep(atMs))
}

/**
 * Signs an operator in with password and the current code. A code works once, so when another
 * test file used this step's code already, it waits for the next step and tries again.
 */
export async function operatorLogin(op: E2eOperator): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const params = { username: op.username, password: op.password, code: totpCode(op.totpSecret) }
      return (await api<{ token: string }>('admin/login', params)).token
    } catch (e) {
      if (attempt >= 3 || (e as { reason?: string }).reason !== 'operator_login_failed') throw e
      const stepMs = TOTP_STEP_SECONDS * 1000
      await new Promise((r) => setTimeout(r, stepMs - (Date.now() % stepMs) + 200))
    }
  }
}

let operatorToken: string | null = null

/** The e2e finance operator's session token, signed in on first use. */
export async function operator(): Promise<string> {
  operatorToken ??= await operatorLogin(inject('operator'))
  return operatorToken
}

/** Backend recharge of a user's account by the e2e finance operator. */
export async function creditUser(
  userName: string,
  amount: string,
  account = 'usdt',
): Promise<void> {
  await api(
    'admin/credit',
    {
      userName,
      account,
      amount,
      reason: 'e2e funding',
      idempotencyKey: `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`,
    },
    await operator(),
  )
}

/** Runs the daily settlement of `day` through the e2e finance operator. */
export async function settleDay(day: string): Promise<{ positions: number; status: string }> {
  return api('admin/settle', { day }, await operator())
}
