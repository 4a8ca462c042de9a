import {
  OK_CODE,
  type Envelope,
  type Reason,
  type RouteData,
  type RouteParams,
  type RoutePath,
} from '@hope/api'
import { lanHeader } from './lang.ts'
import { clearSession, getSession } from './session.ts'

export const REQUEST_TIMEOUT_MS = 60_000

/** Query-string params: the contract's string fields also take numbers. */
export type QueryParams<P extends RoutePath> = {
  [K in keyof RouteParams<P>]: RouteParams<P>[K] extends string | undefined
    ? RouteParams<P>[K] | number
    : RouteParams<P>[K]
}

export interface RequestOptions {
  signal?: AbortSignal
  /** A raw request body (only `admin/upload`: the image bytes) and its content type. */
  body?: Blob
}

/** A failed call: `code`/`reason`/`msg` from the envelope; code 0 when nothing answered. */
export class ApiError extends Error {
  readonly code: number
  readonly reason: Reason | undefined
  readonly msg: string

  constructor(init: { code: number; reason?: Reason | undefined; msg: string }) {
    super(init.msg || `request failed (${init.code})`)
    this.name = 'ApiError'
    this.code = init.code
    this.reason = init.reason
    this.msg = init.msg
  }
}

function toQuery(params: object | undefined): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === undefined || value === null || value === '') continue
    query.append(key, String(value))
  }
  const text = query.toString()
  return text ? `?${text}` : ''
}

async function readEnvelope(response: Response): Promise<Partial<Envelope<unknown>> | null> {
  try {
    const body: unknown = await response.json()
    return body && typeof body === 'object' ? body : null
  } catch {
    return null
  }
}

/**
 * Calls `POST /api/<path>` with the params in the query string, the operator's `token` and
 * the console language's `lan`, and resolves the envelope's data. Anything else rejects with
 * an ApiError carrying the server's translated `msg`; a 401 also ends the session, so the
 * console goes back to its login screen.
 * @example const page = await request('admin/users', { q: '0xab', pageNum: 1 })
 */
export async function request<P extends RoutePath>(
  path: P,
  params?: QueryParams<P>,
  opts: RequestOptions = {},
): Promise<RouteData<P>> {
  const signal = opts.signal
    ? AbortSignal.any([opts.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
    : AbortSignal.timeout(REQUEST_TIMEOUT_MS)
  const headers: Record<string, string> = { lan: lanHeader() }
  if (opts.body) headers['Content-Type'] = opts.body.type || 'application/octet-stream'
  else headers['Content-Type'] = 'application/json;charset=UTF-8'
  const token = getSession()?.token
  if (token) headers.token = token

  let response: Response
  try {
    response = await fetch(`/api/${path}${toQuery(params)}`, {
      method: 'POST',
      headers,
      signal,
      ...(opts.body ? { body: opts.body } : {}),
    })
  } catch (cause) {
    if (opts.signal?.aborted) throw cause
    console.error(`request ${path} failed`, cause)
    throw new ApiError({ code: 0, msg: '' })
  }
  const body = await readEnvelope(response)
  if (response.status === OK_CODE && body?.code === OK_CODE) return body.data as RouteData<P>

  const code = typeof body?.code === 'number' ? body.code : response.status
  if (code === 401 && path !== 'admin/login') clearSession()
  throw new ApiError({
    code,
    msg: typeof body?.msg === 'string' ? body.msg : '',
    reason: body?.reason,
  })
}

/** The text to show for a failure: the server's translated msg, or the given fallback. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.msg ? error.msg : fallback
}
