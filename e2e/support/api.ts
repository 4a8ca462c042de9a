import { inject } from 'vitest'

const baseUrl = () => inject('baseUrl')

/** Calls the app's API the way the web app does: POST, payload in the query string. */
export async function api<T>(
  path: string,
  params: Record<string, string>,
  token?: string,
): Promise<T> {
  const res = await fetch(`${baseUrl()}/api/${path}?${new URLSearchParams(params)}`, {
    method: 'POST',
    headers: token ? { token } : {},
  })
  const body = (await res.json()) as { code: number; msg: string; data: T }
  if (res.status !== 200 || body.code !== 200) throw new Error(`${path}: ${body.code} ${body.msg}`)
  return body.data
}

let operatorToken: string | null = null

/** The e2e finance operator's session token, signed in on first use. */
async function operator(): Promise<string> {
  if (!operatorToken) {
    const { username, password } = inject('operator')
    operatorToken = (await api<{ token: string }>('admin/login', { username, password })).token
  }
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
