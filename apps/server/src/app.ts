import { langFromHeader, type Lang } from '@hope/api'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import type { ChainConnection } from './chain/chain.service.ts'
import type { Config } from './config.ts'
import type { Database } from './db/pool.ts'
import { AppError } from './lib/app-error.ts'
import { RateLimiter } from './lib/rate-limiter.ts'
import { createSignatureVerifier, type SignatureVerifier } from './lib/signature.ts'
import { accountRoutes } from './modules/account/account.routes.ts'
import { gameRoutes } from './modules/game/game.routes.ts'
import { createGameService, type GameService } from './modules/game/game.service.ts'
import { createAccountService, type AccountService } from './modules/account/account.service.ts'
import { createLedgerService, type LedgerService } from './modules/ledger/ledger.service.ts'
import { newsRoutes } from './modules/news/news.routes.ts'
import { operatorRoutes } from './modules/operator/operator.routes.ts'
import { createOperatorService, type OperatorService } from './modules/operator/operator.service.ts'
import { createSettingsService, type SettingsService } from './modules/settings/settings.service.ts'
import { rechargeRoutes } from './modules/recharge/recharge.routes.ts'
import { createRechargeService, type RechargeService } from './modules/recharge/recharge.service.ts'
import { userRoutes } from './modules/user/user.routes.ts'
import { withdrawRoutes } from './modules/withdraw/withdraw.routes.ts'
import { createWithdrawService, type WithdrawService } from './modules/withdraw/withdraw.service.ts'
import { createUserService, type UserService } from './modules/user/user.service.ts'
import { registerDocs } from './plugins/docs.ts'
import { registerErrorHandling } from './plugins/errors.ts'
import { registerSecurityHeaders, registerWebApp } from './plugins/web.ts'

export interface Services {
  settings: SettingsService
  users: UserService
  ledger: LedgerService
  accounts: AccountService
  operators: OperatorService
  withdrawals: WithdrawService
  recharges: RechargeService
  game: GameService
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
    db: Database
    chain: ChainConnection | undefined
    /** True when the built web app is served at `/`. */
    webAppServed: boolean
    services: Services
    /** Counts a login/register attempt per IP and per address; throws rate_limited past the limit. */
    authRateLimit(req: FastifyRequest, address: string): void
  }
  interface FastifyRequest {
    lang: Lang
  }
}

export interface AppOptions {
  config: Config
  database: Database
  /** The EVM chain for recharge and withdraw; absent in tests that need none. */
  chain?: ChainConnection
  logger?: boolean | Record<string, unknown>
  verifySignature?: SignatureVerifier
  now?: () => number
}

/** Builds the whole HTTP app; `server.ts` only listens, tests use `app.inject`. */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? {
      level: opts.config.logLevel,
      // Payloads travel in the query string (spec §7): log the path only, never the values.
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          path: req.url.split('?')[0],
          ip: req.ip,
        }),
      },
    },
    trustProxy: opts.config.trustProxy,
    bodyLimit: 64 * 1024,
  })

  const settings = createSettingsService(opts.database.db)
  const users = createUserService({
    db: opts.database.db,
    settings,
    verifySignature: opts.verifySignature ?? createSignatureVerifier(),
    ...(opts.now ? { now: opts.now } : {}),
  })
  app.decorate('config', opts.config)
  app.decorate('chain', opts.chain)
  app.decorate('db', opts.database)
  const ledger = createLedgerService(opts.database.pool)
  const accounts = createAccountService({ pool: opts.database.pool, ledger, settings })
  const operators = createOperatorService({
    pool: opts.database.pool,
    db: opts.database.db,
    ledger,
  })
  const withdrawals = createWithdrawService({
    pool: opts.database.pool,
    ledger,
    settings,
    chainId: () => opts.chain?.chainId,
  })
  const recharges = createRechargeService({
    pool: opts.database.pool,
    settings,
    chain: () => opts.chain,
  })
  const game = createGameService({ pool: opts.database.pool, ledger, settings })
  app.decorate('services', {
    settings,
    users,
    ledger,
    accounts,
    operators,
    withdrawals,
    recharges,
    game,
  })

  // Limits come from the settings cache, refreshed on every user call before its handler runs.
  let lastSettings = await settings.get()
  const limiter = new RateLimiter(60_000, opts.now)
  app.decorate('authRateLimit', (req: FastifyRequest, address: string) => {
    const s = lastSettings
    const wait = Math.max(
      limiter.hit(`ip:${req.ip}`, s.authRateLimitPerIp),
      limiter.hit(`addr:${address.toLowerCase()}`, s.authRateLimitPerAddress),
    )
    if (wait > 0) throw new AppError('rate_limited', { detail: String(Math.ceil(wait / 1000)) })
  })
  app.addHook('onRequest', async (req) => {
    req.lang = langFromHeader(req.headers.lan)
    if (req.url.startsWith('/api/user/')) lastSettings = await settings.get()
  })

  // The client sends `Content-Type: application/json` with an empty body; the payload is in
  // the query string, so a body is accepted but never read.
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    if (body === '' || body === undefined) return done(null, {})
    try {
      done(null, JSON.parse(body as string))
    } catch {
      done(new AppError('invalid_params', { detail: 'body' }), undefined)
    }
  })

  registerErrorHandling(app)
  registerSecurityHeaders(app)
  registerDocs(app)
  await app.register(userRoutes)
  await app.register(newsRoutes)
  await app.register(accountRoutes)
  await app.register(operatorRoutes)
  await app.register(withdrawRoutes)
  await app.register(rechargeRoutes)
  await app.register(gameRoutes)
  app.decorate('webAppServed', await registerWebApp(app, opts.config.webDist))
  return app
}
