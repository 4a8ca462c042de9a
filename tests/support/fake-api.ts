import type { Reason, RoutePath } from '@hope/api'
import { vi } from 'vitest'

/**
 * The fake API server of the app's and the console's component tests: `fetch` stubbed with
 * one handler per route path, every call kept for the test to look at.
 */

export interface ApiCall {
  path: string
  params: Record<string, string>
  headers: Record<string, string>
  method: string
}

export type Reply = { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>
export type Handler = (call: ApiCall) => Reply
export type Handlers = Partial<Record<RoutePath, Handler>>

/** The server's envelope around an answer. */
export const ok = (data: unknown) => ({ body: { code: 200, msg: 'success', data } })
/** The server's envelope around a refusal: its HTTP status, reason and message. */
export const fail = (code: number, reason: Reason, msg: string = reason) => ({
  status: code,
  body: { code, msg, reason, data: null },
})

/**
 * Stubs fetch with a tiny API server: the test's handler for a path, else the app's default
 * one (`defaults`); an unknown path answers 404.
 */
export function fakeApi(handlers: Handlers, defaults: Handlers = {}) {
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
