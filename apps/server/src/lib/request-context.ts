import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/** The id of the request whose work is running, wherever that work logs from. */
const current = new AsyncLocalStorage<string>()

/** An id a load balancer in front gave the request (`x-request-id`), when it is a sane one. */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{8,64}$/

/**
 * Each request's id: the load balancer's `x-request-id` when it looks like an id (so one id
 * follows the request through both logs), else 16 random hex digits, unique across processes
 * and restarts (Fastify's default `req-1` starts again at every start and in every worker).
 */
export function requestIdOf(req: IncomingMessage): string {
  const forwarded = req.headers['x-request-id']
  if (typeof forwarded === 'string' && FORWARDED_ID.test(forwarded)) return forwarded
  return randomBytes(8).toString('hex')
}

/** Runs the rest of a request's life (`next`) with its id as the current one. */
export function withRequestId(id: string, next: () => void): void {
  current.run(id, next)
}

/**
 * pino's `mixin`: the current request's id on every line logged while that request's work runs
 * (a service's or a job helper's line through `app.log` too), unless the line's logger is the
 * request's own, which carries it already.
 */
export function requestIdMixin(
  _merge: object,
  _level: number,
  logger: { bindings(): Record<string, unknown> },
): object {
  const reqId = current.getStore()
  if (!reqId || logger.bindings().reqId !== undefined) return {}
  return { reqId }
}
