import {
  LAN_HEADER,
  OK_CODE,
  type Envelope,
  type Lang,
  type Reason,
  type RouteData,
  type RouteParams,
  type RoutePath,
} from '@hope/api'
import { JSON_CONTENT_TYPE, takeEarlyRead } from './early-reads.ts'
import { currentLang } from '../i18n/lang.ts'
import { useSession } from '../store.ts'
import { showToast } from '../ui/toast.ts'

export const REQUEST_TIMEOUT_MS = 60_000
/** The spec's fixed fallback when the server gives no message (§8). */
const SYSTEM_ERROR = '系统错误'
const SESSION_REASONS: ReadonlySet<Reason> = new Set(['not_logged_in', 'session_expired'])

export interface RequestOptions {
  /** Skip the error toast (the caller handles the failure itself). */
  hideToast?: boolean
  signal?: AbortSignal
  /**
   * The language of the `lan` header; the stored one when absent. A query keyed by language
   * passes its own, so that the key and the answer always agree, even mid-switch.
   */
  lang?: Lang
}

/** Query-string params: the contract's string fields also take numbers. */
export type QueryParams<P extends RoutePath> = {
  [K in keyof RouteParams<P>]: RouteParams<P>[K] extends string | undefined
    ? RouteParams<P>[K] | number
    : RouteParams<P>[K]
}

type ErrorKind = 'http' | 'timeout' | 'network'

/** A failed call: `code`/`reason`/`msg` from the envelope; code 0 when nothing answered. */
export class ApiError extends Error {
  readonly code: number
  readonly reason: Reason | undefined
  readonly msg: string
  readonly kind: ErrorKind

  constructor(init: { code: number; reason?: Reason; msg: string; kind: ErrorKind }) {
    super(init.msg || `request failed (${init.code})`)
    this.name = 'ApiError'
    this.code = init.code
    this.reason = init.reason
    this.msg = init.msg
    this.kind = init.kind
  }
}

/** Shows the spec's toast for a failure: the server's msg, or 系统错误. Silent when nothing answered. */
export function showRequestError(error: unknown): void {
  if (error instanceof ApiError && error.kind !== 'http') return
  const msg = error instanceof ApiError ? error.msg : ''
  showToast(msg || SYSTEM_ERROR)
}

function toQuery(params: object | undefined): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === undefined || value === null) continue
    query.append(key, String(value))
  }
  const text = query.toString()
  return text ? `?${text}` : ''
}

/** The body as an envelope, or null when it is not JSON; rethrows when the call was aborted. */
async function readEnvelope(
  response: Response,
  signal: AbortSignal,
): Promise<Partial<Envelope<unknown>> | null> {
  try {
    const body: unknown = await response.json()
    return body && typeof body === 'object' ? body : null
  } catch (error) {
    if (signal.aborted) throw error
    return null
  }
}

/** An answer already under way, given up like a fetch when `signal` aborts first. */
function untilAborted<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error)
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })
    answer.then(resolve, reject)
  })
}

function timedOut(signal: AbortSignal): boolean {
  return signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError'
}

/**
 * Calls `POST /api/<path>` with the params in the query string (spec §7) and resolves the
 * body's data. Success only when the HTTP status and the body code are both 200; otherwise a
 * toast shows the server's msg (unless `hideToast`) and the promise rejects with an ApiError.
 * Time-outs (60 s) and network errors are only logged.
 * @example const page = await request('main/news', { pageNum: 1, pageSize: 3 })
 */
export async function request<P extends RoutePath>(
  path: P,
  params?: QueryParams<P>,
  opts: RequestOptions = {},
): Promise<RouteData<P>> {
  const controller = new AbortController()
  const timer = setTimeout(
    () => controller.abort(new DOMException('timeout', 'TimeoutError')),
    REQUEST_TIMEOUT_MS,
  )
  const onAbort = () => controller.abort(opts.signal?.reason)
  opts.signal?.addEventListener('abort', onAbort, { once: true })
  const lan = LAN_HEADER[opts.lang ?? currentLang()]
  const headers: Record<string, string> = { 'Content-Type': JSON_CONTENT_TYPE, lan }
  const { token } = useSession.getState()
  if (token) headers.token = token

  let response: Response
  let body: Partial<Envelope<unknown>> | null
  try {
    const url = `/api/${path}${toQuery(params)}`
    const early = takeEarlyRead(url, lan, token)
    response = await (early
      ? untilAborted(early, controller.signal)
      : fetch(url, { method: 'POST', headers, signal: controller.signal }))
    body = await readEnvelope(response, controller.signal)
  } catch (cause) {
    // The caller gave up (a query was cancelled): nothing failed, nothing to log.
    if (opts.signal?.aborted) throw cause
    const kind = timedOut(controller.signal) ? 'timeout' : 'network'
    console.error(`request ${path}: ${kind === 'timeout' ? 'timed out' : 'failed'}`, cause)
    throw new ApiError({ code: 0, msg: '', kind })
  } finally {
    clearTimeout(timer)
    opts.signal?.removeEventListener('abort', onAbort)
  }

  if (response.status === OK_CODE && body?.code === OK_CODE) return body.data as RouteData<P>

  const error = new ApiError({
    code: typeof body?.code === 'number' ? body.code : response.status,
    msg: typeof body?.msg === 'string' ? body.msg : '',
    kind: 'http',
    ...(body?.reason ? { reason: body.reason } : {}),
  })
  if (error.code === 401 && error.reason && SESSION_REASONS.has(error.reason)) {
    useSession.getState().signOut()
  }
  if (!opts.hideToast) showRequestError(error)
  throw error
}
