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
    // An operator is checked before the params, so the console's routes tell nothing to others.
    const operator =
      def.auth === 'operator'
        ? await app.services.operators.authenticate(req.headers.token, roles)
        : null
    const nul = fieldWithNul(req.query)
    if (nul !== null) throw new AppError('invalid_params', { detail: nul })
    const parsed = def.params.safeParse(req.query ?? {})
    if (!parsed.success) {
      // A schema may name the reason a user should see (e.g. 'address_required') as the message.
      const named = parsed.error.issues.find((i) => i.message in REASON_CODES)
      if (named) throw new AppError(named.message as Reason, { detail: named.path.join('.') })
      const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || 'params'))]
      throw new AppError('invalid_params', { detail: fields.join(', ') })
    }
    const session =
      def.auth === true ? await app.services.users.authenticate(req.headers.token) : null
    const data = await handler({ params: parsed.data as Params<P>, session, operator, req })
    return reply.send(ok(data))
  })
}

/** The origin the user reached us at, for links we hand back (PUBLIC_URL wins when set). */
export function requestOrigin(req: FastifyRequest): string {
  const configured = req.server.config.publicUrl
  if (configured) return configured
  return `${req.protocol}://${req.host}`
}
