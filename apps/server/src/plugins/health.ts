import { reasonMessage } from '@hope/api'
import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import type { ChainConnection } from '../chain/chain.service.ts'
import type { LimitStore } from '../lib/limit-store.ts'
import { withTimeout } from '../lib/with-timeout.ts'

/** How long each readiness check may take before it counts as failed. */
export const READY_CHECK_TIMEOUT_MS = 2_000

export type CheckName = 'database' | 'chain' | 'redis'

/**
 * What failed, without the message itself: a driver's message may carry a host, a URL or
 * credentials, and this answer is public.
 */
function whyFailed(e: unknown): string {
  if (e instanceof Error && e.message.startsWith('no answer within')) return e.message
  const code = (e as { code?: unknown }).code
  if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code
  return e instanceof Error ? e.name : 'error'
}

/**
 * `GET /healthz`: the process answers (a load balancer's liveness probe).
 * `GET /readyz`: what a request needs answers: PostgreSQL, the chain's RPC when one is
 * configured, Redis when the limits count there. 200 with each check `ok`, or 503 naming
 * what failed, e.g. `{ "checks": { "database": "ok", "chain": "failed: no answer within 2000 ms" } }`.
 * Both answer in the API's envelope.
 */
export function registerHealth(
  app: FastifyInstance,
  deps: {
    pool: pg.Pool
    chain: ChainConnection | undefined
    limits: LimitStore
    timeoutMs?: number
  },
): void {
  const timeoutMs = deps.timeoutMs ?? READY_CHECK_TIMEOUT_MS
  const checks: [CheckName, () => Promise<unknown>][] = [
    ['database', () => deps.pool.query('SELECT 1')],
  ]
  if (deps.chain) {
    const { client } = deps.chain
    checks.push(['chain', () => client.getBlockNumber({ cacheTime: 0 })])
  }
  if (deps.limits.kind === 'redis') checks.push(['redis', () => deps.limits.ping()])

  app.get('/healthz', async (_req, reply) =>
    reply.send({ code: 200, msg: 'ok', data: { status: 'ok' } }),
  )

  app.get('/readyz', async (req, reply) => {
    const results = await Promise.all(
      checks.map(async ([name, check]) => {
        try {
          await withTimeout(check(), timeoutMs)
          return [name, 'ok'] as const
        } catch (e) {
          return [name, `failed: ${whyFailed(e)}`] as const
        }
      }),
    )
    const failed = results.filter(([, state]) => state !== 'ok').map(([name]) => name)
    const data = {
      status: failed.length ? 'unavailable' : 'ready',
      failed,
      checks: Object.fromEntries(results),
    }
    if (!failed.length) return reply.send({ code: 200, msg: 'ok', data })
    return reply.code(503).send({
      code: 503,
      msg: `${reasonMessage('service_unavailable', req.lang)} (${failed.join(', ')})`,
      reason: 'service_unavailable',
      data,
    })
  })
}
