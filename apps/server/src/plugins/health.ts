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

export interface DependencyProbe {
  /** The dependencies checked: the database always, the chain and Redis when configured. */
  readonly names: readonly CheckName[]
  /** Checks each dependency at once (each within the timeout): `ok` or `failed: <why>`. */
  check(): Promise<Record<CheckName, string>>
  /** What the newest check found for each dependency checked so far. */
  last(): ReadonlyMap<CheckName, { ok: boolean; atMs: number }>
}

/**
 * The dependency checks shared by `/readyz` and the metrics (`hope_dependency_up`): PostgreSQL,
 * the chain's RPC when one is configured, Redis when the limits count there.
 */
export function createDependencyProbe(deps: {
  pool: pg.Pool
  chain: ChainConnection | undefined
  limits: LimitStore
  timeoutMs?: number
}): DependencyProbe {
  const timeoutMs = deps.timeoutMs ?? READY_CHECK_TIMEOUT_MS
  const checks: [CheckName, () => Promise<unknown>][] = [
    ['database', () => deps.pool.query('SELECT 1')],
  ]
  if (deps.chain) {
    const { client } = deps.chain
    checks.push(['chain', () => client.getBlockNumber({ cacheTime: 0 })])
  }
  if (deps.limits.kind === 'redis') checks.push(['redis', () => deps.limits.ping()])
  const last = new Map<CheckName, { ok: boolean; atMs: number }>()
  return {
    names: checks.map(([name]) => name),
    async check() {
      const results = await Promise.all(
        checks.map(async ([name, check]) => {
          try {
            await withTimeout(check(), timeoutMs)
            last.set(name, { ok: true, atMs: Date.now() })
            return [name, 'ok'] as const
          } catch (e) {
            last.set(name, { ok: false, atMs: Date.now() })
            return [name, `failed: ${whyFailed(e)}`] as const
          }
        }),
      )
      return Object.fromEntries(results) as Record<CheckName, string>
    },
    last: () => last,
  }
}

/**
 * `GET /healthz`: the process answers (a load balancer's liveness probe).
 * `GET /readyz`: whether this process can serve requests, which all need PostgreSQL: 503 only
 * when PostgreSQL does not answer within 2 s. The chain's RPC and Redis are checked and shown
 * too, but their outage keeps the process ready: Redis's counters fall back to PostgreSQL and
 * chain work (deposits, payouts) waits and resumes, so taking every instance out of rotation
 * at once would turn a partial outage into a total one. The metrics (`hope_dependency_up`) and
 * the alerts report those. E.g. `{ "status": "degraded", "failed": ["chain"], "checks":
 * { "database": "ok", "chain": "failed: no answer within 2000 ms" } }` with 200.
 * Both answer in the API's envelope.
 */
export function registerHealth(app: FastifyInstance, probe: DependencyProbe): void {
  app.get('/healthz', async (_req, reply) =>
    reply.send({ code: 200, msg: 'ok', data: { status: 'ok' } }),
  )

  app.get('/readyz', async (req, reply) => {
    const checks = await probe.check()
    const failed = (Object.keys(checks) as CheckName[]).filter((name) => checks[name] !== 'ok')
    const ready = !failed.includes('database')
    const data = {
      status: !ready ? 'unavailable' : failed.length ? 'degraded' : 'ready',
      failed,
      checks,
    }
    if (ready) return reply.send({ code: 200, msg: 'ok', data })
    return reply.code(503).send({
      code: 503,
      msg: `${reasonMessage('service_unavailable', req.lang)} (${failed.join(', ')})`,
      reason: 'service_unavailable',
      data,
    })
  })
}
