import { OK_CODE, reasonMessage, type Envelope } from '@hope/api'
import type { FastifyError, FastifyInstance } from 'fastify'
import { AppError, isAppError } from '../lib/app-error.ts'
import { isAppNavigation } from './web.ts'

export const ok = <T>(data: T): Envelope<T> => ({ code: OK_CODE, msg: 'success', data })

const DB_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '53300',
])

function toAppError(err: unknown): AppError | null {
  if (isAppError(err)) return err
  const e = err as Partial<FastifyError> & { code?: string; cause?: { code?: string } }
  if (DB_UNAVAILABLE.has(e.code ?? '') || DB_UNAVAILABLE.has(e.cause?.code ?? '')) {
    return new AppError('service_unavailable', { cause: err })
  }
  if (/timeout exceeded when trying to connect/i.test(e.message ?? '')) {
    return new AppError('service_unavailable', { cause: err })
  }
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
    if (!appError || appError.code >= 500) {
      req.log.error({ err }, 'request failed')
    }
    const e = appError ?? new AppError('internal_error', { cause: err })
    const base = reasonMessage(e.reason, req.lang)
    const msg = e.reason === 'invalid_params' && e.detail ? `${base}: ${e.detail}` : base
    if (e.reason === 'rate_limited' && e.detail) void reply.header('retry-after', e.detail)
    return reply.status(e.code).send({ code: e.code, msg, reason: e.reason, data: null })
  })

  app.setNotFoundHandler((req, reply) => {
    if (
      app.hasDecorator('webAppServed') &&
      app.webAppServed &&
      isAppNavigation(req.method, req.url)
    ) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html')
    }
    const e = new AppError('not_found')
    return reply.status(e.code).send({
      code: e.code,
      msg: reasonMessage('not_found', req.lang),
      reason: e.reason,
      data: null,
    })
  })
}
