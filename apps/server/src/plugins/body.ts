import type { FastifyInstance } from 'fastify'
import { AppError } from '../lib/app-error.ts'

/** What Fastify itself raises for a media type no parser takes (the upload route names it). */
function unsupportedMediaType(): Error {
  return Object.assign(new Error('unsupported media type'), {
    code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    statusCode: 415,
  })
}

/**
 * A JSON body's fields as the query string would carry them: text as it is, whole numbers and
 * booleans as their text, null as "not given". A fractional number is refused: amounts travel
 * as decimal strings, and a float has already lost digits by the time it is parsed.
 */
export function jsonBodyFields(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new AppError('invalid_params', { detail: 'body' })
  const fields = new Map<string, unknown>()
  for (const [key, v] of Object.entries(value)) {
    if (v === null) continue
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) throw new AppError('invalid_params', { detail: key })
      fields.set(key, String(v))
    } else if (typeof v === 'boolean') fields.set(key, String(v))
    else fields.set(key, v)
  }
  return Object.fromEntries(fields)
}

/** A form body's fields; a name given twice becomes a list, as in the query string. */
export function formBodyFields(text: string): Record<string, unknown> {
  const fields = new Map<string, string | string[]>()
  for (const [key, v] of new URLSearchParams(text)) {
    const had = fields.get(key)
    fields.set(key, had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v])
  }
  return Object.fromEntries(fields)
}

/**
 * Bodies of every kind a client may send with a POST (DESIGN §2). The payload travels in the
 * query string; a JSON or form body's fields count like the query's where it does not name
 * them. An empty body is accepted whatever its content type (many HTTP clients send
 * `application/x-www-form-urlencoded` by default); a non-empty body of another type is
 * refused as unsupported.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain'])
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim()
    if (text === '') return done(null, {})
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return done(new AppError('invalid_params', { detail: 'body' }), undefined)
    }
    try {
      done(null, jsonBodyFields(value))
    } catch (e) {
      done(e as Error, undefined)
    }
  })
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, formBodyFields(body as string)),
  )
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    if ((body as string).trim() === '') return done(null, {})
    done(unsupportedMediaType(), undefined)
  })
}
