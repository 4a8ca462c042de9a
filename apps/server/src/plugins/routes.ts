import { REASON_CODES, ROUTES, type Reason, type RouteData, type RoutePath } from '@hope/api'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { AppError } from '../lib/app-error.ts'
import { fieldWithNul } from '../security/text.ts'
import type { Operator } from '../modules/operator/operator.service.ts'
import type { AuthSession } from '../modules/user/user.service.ts'
import { ok } from './errors.ts'

type Params<P extends RoutePath> = z.output<(typeof ROUTES)[P]['params']>

export interface RouteContext<P extends RoutePath> {
  params: Params<P>
  /** Present whenever the route is marked `auth: true` in the contract. */
  session: AuthSession | null
  /** Present whenever the route is marked `auth: 'operator'`, with an allowed role. */
  operator: Operator | null
  req: FastifyRequest
}

/**
 * Registers `POST /api/<path>` from the contract: the query string is validated by the
 * route's zod schema, the `token` header is required where the contract says so, and the
 * handler's result is wrapped in the success envelope.
 */
export function defineRoute<P extends RoutePath>(
  app: FastifyInstance,
  path: P,
  handler: (ctx: RouteContext<P>) => Promise<RouteData<P>> | RouteData<P>,
): void {
  const def = ROUTES[path]
  const roles = 'roles' in def ? def.roles : undefined
  // Operator routes name the roles they admit; one that names none is a mistake, not "anyone".
  if (def.auth === 'operator' && !roles?.length)
    throw new Error(`${path}: an operator route must declare its roles`)
  app.post(`/api/${path}`, async (req, reply) => {
    // The session comes before the params (DESIGN §2): a guarded route tells a caller without
    // one nothing but `not_logged_in`, whatever it sent.
    const operator =
      def.auth === 'operator'
        ? await app.services.operators.authenticate(req.headers.token, roles)
        : null
    const session =
      def.auth === true ? await app.services.users.authenticate(req.headers.token) : null
    const fields = requestFields(req.query, def.body ? undefined : req.body)
    const nul = fieldWithNul(fields)
    if (nul !== null) throw new AppError('invalid_params', { detail: nul })
    const parsed = def.params.safeParse(fields)
    if (!parsed.success) {
      // A schema may name the reason a user should see (e.g. 'address_required') as the message.
      const named = parsed.error.issues.find((i) => i.message in REASON_CODES)
      if (named) throw new AppError(named.message as Reason, { detail: named.path.join('.') })
      const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || 'params'))]
      throw new AppError('invalid_params', { detail: fields.join(', ') })
    }
    const data = await handler({ params: parsed.data as Params<P>, session, operator, req })
    return reply.send(ok(data))
  })
}

/**
 * A request's fields: the query string's, and those of a form or JSON body where the query
 * does not name them (clients differ in where they put a POST's payload). An empty value means
 * "not given": the spec's client sends every field it holds, set or not (`pusername=`), and
 * the schema's default then applies.
 */
export function requestFields(query: unknown, body: unknown): Record<string, unknown> {
  // A Map, then own properties: a field named `__proto__` stays a field.
  const fields = new Map<string, unknown>()
  const add = (source: unknown) => {
    if (!source || typeof source !== 'object' || Array.isArray(source)) return
    for (const [key, value] of Object.entries(source)) {
      if (!fields.has(key) && !isEmpty(value)) fields.set(key, value)
    }
  }
  add(query)
  add(body)
  return Object.fromEntries(fields)
}

const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '')

/** The origin the user reached us at, for links we hand back (PUBLIC_URL wins when set). */
export function requestOrigin(req: FastifyRequest): string {
  const configured = req.server.config.publicUrl
  if (configured) return configured
  return `${req.protocol}://${req.host}`
}
