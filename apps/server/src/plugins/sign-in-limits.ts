import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError, isAppError } from '../lib/app-error.ts'
import { FailureDelays } from '../lib/failure-delays.ts'
import { createMemoryLimitStore, type LimitStore } from '../lib/limit-store.ts'
import { RateLimiter } from '../lib/rate-limiter.ts'
import type { Settings } from '../modules/settings/settings.rules.ts'

/** A wallet sign-in's refusals that mean "not this address's signature". */
const SIGNATURE_FAILURES = new Set([
  'signature_invalid',
  'signature_expired',
  'invalid_message',
  'message_time_invalid',
])

const MINUTE_MS = 60_000

const rateLimited = (waitMs: number) =>
  new AppError('rate_limited', { detail: String(Math.max(1, Math.ceil(waitMs / 1000))) })

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Runs a wallet sign-in (register or login) for `address` under the limits of DESIGN §3:
     * every attempt counts against the caller's IP; failures count against the address, and
     * only failures are refused by that count, so nobody else's junk locks the owner out.
     */
    guardWalletSignIn<T>(
      req: FastifyRequest,
      address: string,
      attempt: () => Promise<T>,
    ): Promise<T>
    /**
     * Runs an operator sign-in under the limits: every attempt counts against the IP; failures
     * slow down the same username from the same IP with a growing wait, never a flat lock, and
     * never because of other addresses' failures: the operator's own typo from a new address
     * is answered as a typo.
     */
    /**
     * Counts an address look-up (is this address registered, in my downline) against the
     * caller's IP: past `lookupRateLimitPerIp` a minute the answer is 429 with the wait, so the
     * user base cannot be enumerated at speed.
     */
    guardLookup(req: FastifyRequest): Promise<void>
    guardOperatorSignIn<T>(
      req: FastifyRequest,
      username: string,
      attempt: () => Promise<T>,
    ): Promise<T>
  }
}

export function registerSignInLimits(
  app: FastifyInstance,
  settings: () => Pick<
    Settings,
    'authRateLimitPerIp' | 'authRateLimitPerAddress' | 'lookupRateLimitPerIp'
  >,
  now: () => number = Date.now,
  store: LimitStore = createMemoryLimitStore(),
  onFailure: (kind: 'wallet' | 'operator') => void = () => {},
): void {
  // One store for every counter: shared by all processes when it is PostgreSQL or Redis.
  const perIp = new RateLimiter(MINUTE_MS, now, store)
  const addressFailures = new RateLimiter(MINUTE_MS, now, store)
  // Operators: three free failures, then 1 s doubling to 15 min, forgotten an hour after.
  const operatorDelays = new FailureDelays(
    { freeFailures: 3, baseMs: 1_000, maxMs: 15 * MINUTE_MS, forgetMs: 60 * MINUTE_MS },
    now,
    store,
  )

  const lookups = new RateLimiter(MINUTE_MS, now, store)
  app.decorate('guardLookup', async (req: FastifyRequest): Promise<void> => {
    const wait = await lookups.hit(`lookup-ip:${req.ip}`, settings().lookupRateLimitPerIp)
    if (wait > 0) throw rateLimited(wait)
  })

  async function countIp(req: FastifyRequest): Promise<void> {
    const wait = await perIp.hit(`ip:${req.ip}`, settings().authRateLimitPerIp)
    if (wait > 0) throw rateLimited(wait)
  }

  app.decorate(
    'guardWalletSignIn',
    async <T>(req: FastifyRequest, address: string, attempt: () => Promise<T>): Promise<T> => {
      await countIp(req)
      const key = address.toLowerCase()
      try {
        return await attempt()
      } catch (e) {
        if (!isAppError(e) || !SIGNATURE_FAILURES.has(e.reason)) throw e
        onFailure('wallet')
        // Past the limit a failure's answer says how long until the address's count starts
        // anew; a valid signature never waits for it.
        const wait = await addressFailures.hit(`addr:${key}`, settings().authRateLimitPerAddress)
        if (wait > 0) throw rateLimited(wait)
        throw e
      }
    },
  )

  app.decorate(
    'guardOperatorSignIn',
    async <T>(req: FastifyRequest, username: string, attempt: () => Promise<T>): Promise<T> => {
      await countIp(req)
      const name = username.toLowerCase()
      // Keys are text in every store (no NUL in PostgreSQL): the IP first, the name last.
      // Only this IP's own failures for this name count: failures from other addresses
      // never slow the operator down (DESIGN §3), each IP is already limited per minute.
      const pair = `op-ip:${req.ip}/${name}`
      const wait = await operatorDelays.waitMs(pair)
      if (wait > 0) throw rateLimited(wait)
      try {
        const result = await attempt()
        await operatorDelays.clear(pair)
        return result
      } catch (e) {
        if (isAppError(e) && e.reason === 'operator_login_failed') {
          onFailure('operator')
          await operatorDelays.fail(pair)
        }
        throw e
      }
    },
  )
}
