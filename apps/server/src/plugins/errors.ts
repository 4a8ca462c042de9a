import { OK_CODE, reasonMessage, type Envelope } from '@hope/api'
import type { FastifyError, FastifyInstance } from 'fastify'
import { AppError, isAppError } from '../lib/app-error.ts'
import { isAppNavigation } from './web.ts'

export const ok = <T>(data: T): Envelope<T> => ({ code: OK_CODE, msg: 'success', data })

/** Error codes of a database (or a node) that is down, restarting or refusing connections. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  // The connections' own limits (see ConnectionTimeouts): a statement cancelled past its time
  // (query_canceled), a lock waited for too long (lock_not_available), a transaction left idle
  // and its session ended. Another request's lock or a slow moment, worth a retry.
  '57014',
  '55P03',
  '25P03',
])

/** Seconds a 503 asks the client to wait before trying again (Retry-After). */
const UNAVAILABLE_RETRY_AFTER_S = '5'

/** node-postgres's words for a connection that could not be made or was lost. */
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|connection terminated|not queryable|query read timeout/i

type Failure = { code?: unknown; syscall?: unknown; message?: unknown; cause?: unknown } | undefined

/** `err` and the errors it wraps (its `cause` chain), outermost first. */
function* causes(err: unknown): Generator<NonNullable<Failure>> {
  let e = err as Failure
  for (let depth = 0; e && depth < 5; depth++, e = e.cause as Failure) yield e
}

/**
 * The driver's or the system's own words. node-postgres's errors carry the server's message
 * alone; a wrapper whose message quotes the failed query and its parameters ("Failed query:
 * …") is skipped, so those are neither matched nor logged.
 */
function wordsOf(e: NonNullable<Failure>): string | null {
  return typeof e.message === 'string' && !e.message.startsWith('Failed query:') ? e.message : null
}

/** Whether `err`, or an error it wraps, says the database or the chain node is away. */
function isUnavailable(err: unknown): boolean {
  for (const e of causes(err)) {
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true
    // A Unix socket whose server is down: its socket file is gone (not any missing file).
    if (e.code === 'ENOENT' && e.syscall === 'connect') return true
    if (UNAVAILABLE_MESSAGES.test(wordsOf(e) ?? '')) return true
  }
  return false
}

/**
 * What a failure logs: the first error of the chain that does not quote a failed query, so a
 * query's parameters (a session's token hash, an address, an amount) never reach the logs.
 */
function loggable(err: unknown): object {
  for (const e of causes(err)) if (wordsOf(e) !== null) return e
  return { message: 'query failed' }
}

/** PostgreSQL's numeric_value_out_of_range: a sum past what a column holds. */
const NUMERIC_OVERFLOW = '22003'

function toAppError(err: unknown): AppError | null {
  if (isAppError(err)) return err
  const e = err as Partial<FastifyError>
  if (isUnavailable(err)) return new AppError('service_unavailable', { cause: err })
  // The bounds on every amount keep sums far inside the columns; should one still overflow,
  // the transaction has rolled back and nothing moved: a refusal with its reason, not a 500.
  if ([...causes(err)].some((c) => c.code === NUMERIC_OVERFLOW))
    return new AppError('amount_too_large', { cause: err })
  // Fastify's own 4xx: malformed body, unsupported media type, body too large, bad URL.
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError('invalid_params', { cause: err })
  }
  return null
}

/** Every failure leaves as `{ code, msg, reason, data: null }`, `msg` in the `lan` language. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, req, reply) => {
    const appError = toAppError(err)
    if (appError?.reason === 'service_unavailable') {
      // Expected while the database or the chain is away, once per request: the root cause's
      // words only, never the failed query with its parameters.
      const words = [...causes(appError.cause)].map(wordsOf).findLast((w) => w !== null)
      req.log.warn({ cause: words ?? appError.detail ?? '' }, 'service unavailable')
    } else if (!appError || appError.code >= 500) {
      req.log.error({ err: loggable(err) }, 'request failed')
    }
    const e = appError ?? new AppError('internal_error', { cause: err })
    const base = reasonMessage(e.reason, req.lang)
    // The field that was wrong, or the bound an amount went past (not the field's name).
    const withDetail =
      e.reason === 'invalid_params' ||
      e.reason === 'withdraw_limit_reached' ||
      e.reason === 'withdrawal_on_hold' ||
      (e.reason === 'amount_too_large' && /^\d/.test(e.detail ?? ''))
    const msg = withDetail && e.detail ? `${base}: ${e.detail}` : base
    if (e.reason === 'rate_limited' && e.detail) void reply.header('retry-after', e.detail)
    if (e.reason === 'service_unavailable')
      void reply.header('retry-after', UNAVAILABLE_RETRY_AFTER_S)
    return reply
      .status(e.code)
      .send({ code: e.code, msg, reason: e.reason, data: null, requestId: req.id })
  })

  app.setNotFoundHandler(async (req, reply) => {
    const shell = app.hasDecorator('webAppShell') ? app.webAppShell : null
    if (shell && isAppNavigation(req.method, req.url)) return shell(reply)
    const e = new AppError('not_found')
    return reply.status(e.code).send({
      code: e.code,
      msg: reasonMessage('not_found', req.lang),
      reason: e.reason,
      data: null,
      requestId: req.id,
    })
  })
}
