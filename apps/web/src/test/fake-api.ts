import { outflowTypedData, type OutflowKind, type Reason, type RoutePath } from '@hope/api'
import { getAddress } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { vi } from 'vitest'

export interface ApiCall {
  path: string
  params: Record<string, string>
  headers: Record<string, string>
  method: string
}

export type Reply = { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>
type Handler = (call: ApiCall) => Reply

export const ok = (data: unknown) => ({ body: { code: 200, msg: 'ok', data } })
export const fail = (code: number, reason: Reason, msg: string = reason) => ({
  status: code,
  body: { code, msg, reason, data: null },
})

/** What every fake server answers unless a test says otherwise. */
const defaults: Partial<Record<RoutePath, Handler>> = {
  // A Sign-In with Ethereum message for the address asked, as the server makes it.
  'user/loginMessage': (call) =>
    ok({
      message: createSiweMessage({
        domain: 'localhost',
        address: getAddress(call.params.username ?? ''),
        statement: 'Sign in to HOPE with this wallet.',
        uri: 'http://localhost',
        version: '1',
        chainId: 31337,
        nonce: 'testNonce1234',
        issuedAt: new Date(),
        expirationTime: new Date(Date.now() + 300_000),
      }),
    }),
  // An outflow's typed data for the signed-in wallet (the session's address is the token's
  // owner in these tests: the from is what the wallet signs, whoever it is).
  'userAccount/outflowTypedData': (call) =>
    ok(
      outflowTypedData({
        kind: call.params.kind as OutflowKind,
        chainId: 1,
        from: (call.params.from ?? '0x0000000000000000000000000000000000000000') as `0x${string}`,
        to: (call.params.address ?? '0x0000000000000000000000000000000000000000') as `0x${string}`,
        amount: call.params.amount ?? '0',
        idempotencyKey: call.params.idempotencyKey ?? '',
        deadline: Math.floor(Date.now() / 1000) + 600,
      }),
    ),
}

/** Stubs fetch with a tiny API server: one handler per route path; unknown paths answer 404. */
export function fakeApi(handlers: Partial<Record<RoutePath, Handler>>) {
  const calls: ApiCall[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost')
    const call: ApiCall = {
      path: url.pathname.replace(/^\/api\//, ''),
      params: Object.fromEntries(url.searchParams),
      headers: { ...(init?.headers as Record<string, string>) },
      method: init?.method ?? 'GET',
    }
    calls.push(call)
    const handler = handlers[call.path as RoutePath] ?? defaults[call.path as RoutePath]
    const reply = await (handler ? handler(call) : fail(404, 'not_found'))
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { calls, fetchMock, callsTo: (path: RoutePath) => calls.filter((c) => c.path === path) }
}
