import { langFromHeader, type Lang } from '@hope/api'
import Fastify, { type FastifyInstance } from 'fastify'
import { stdSerializers } from 'pino'
import pinoPretty from 'pino-pretty'
import type { ChainConnection } from './chain/chain.service.ts'
import type { Config } from './config.ts'
import type { Database } from './db/pool.ts'
import { createMemoryLimitStore, type LimitStore } from './lib/limit-store.ts'
import { redactUrls } from './lib/redact-urls.ts'
import { sealKeyLoader } from './modules/por/por.seal.ts'
import { requestIdMixin, requestIdOf, withRequestId } from './lib/request-context.ts'
import {
  createSignatureVerifier,
  createTypedDataVerifier,
  type SignatureVerifier,
  type TypedDataVerifier,
} from './lib/signature.ts'
import { accountRoutes } from './modules/account/account.routes.ts'
import { figuresRoutes } from './modules/account/figures.routes.ts'
import { createFiguresService, type FiguresService } from './modules/account/figures.service.ts'
import { chatRoutes } from './modules/chat/chat.routes.ts'
import { createChatService, type ChatService } from './modules/chat/chat.service.ts'
import { createAccountService, type AccountService } from './modules/account/account.service.ts'
import { createLedgerService, type LedgerService } from './modules/ledger/ledger.service.ts'
import { membershipRoutes } from './modules/membership/membership.routes.ts'
import {
  createMembershipService,
  type MembershipService,
} from './modules/membership/membership.service.ts'
import { nodesRoutes } from './modules/nodes/nodes.routes.ts'
import { createNodesService, type NodesService } from './modules/nodes/nodes.service.ts'
import { redemptionRoutes } from './modules/redemption/redemption.routes.ts'
import {
  createRedemptionService,
  type RedemptionService,
} from './modules/redemption/redemption.service.ts'
import { createSaleService, type SaleService } from './modules/sale/sale.service.ts'
import { createSettlementJob, type SettlementJob } from './modules/settlement/settlement.job.ts'
import { settlementRoutes } from './modules/settlement/settlement.routes.ts'
import {
  createSettlementService,
  type SettlementService,
} from './modules/settlement/settlement.service.ts'
import { stakingRoutes } from './modules/staking/staking.routes.ts'
import { createStakingService, type StakingService } from './modules/staking/staking.service.ts'
import { teamRoutes } from './modules/team/team.routes.ts'
import { createTeamService, type TeamService } from './modules/team/team.service.ts'
import { contentRoutes } from './modules/content/content.routes.ts'
import { createContentService, type ContentService } from './modules/content/content.service.ts'
import { uploadRoutes } from './modules/upload/upload.routes.ts'
import {
  createUploadService,
  uploadsDirOf,
  type UploadService,
} from './modules/upload/upload.service.ts'
import { createHttpPriceFeed } from './modules/quotes/quotes.feed.ts'
import { quotesRoutes } from './modules/quotes/quotes.routes.ts'
import { createQuotesService, type QuotesService } from './modules/quotes/quotes.service.ts'
import { rankingRoutes } from './modules/ranking/ranking.routes.ts'
import { createRankingService, type RankingService } from './modules/ranking/ranking.service.ts'
import { operatorRoutes } from './modules/operator/operator.routes.ts'
import { createOperatorService, type OperatorService } from './modules/operator/operator.service.ts'
import { adminRoutes } from './modules/console/console.routes.ts'
import { porRoutes } from './modules/por/por.routes.ts'
import { createPorService, type PorService } from './modules/por/por.service.ts'
import { createAdminService, type AdminService } from './modules/console/console.service.ts'
import { secretKeyLoader } from './modules/totp/totp.secret.ts'
import { createSettingsService, type SettingsService } from './modules/settings/settings.service.ts'
import { rechargeRoutes } from './modules/recharge/recharge.routes.ts'
import { createRechargeService, type RechargeService } from './modules/recharge/recharge.service.ts'
import { userRoutes } from './modules/user/user.routes.ts'
import { noticeRoutes } from './modules/notice/notice.routes.ts'
import { createNoticeService, type NoticeService } from './modules/notice/notice.service.ts'
import { outflowRoutes } from './modules/outflow/outflow.routes.ts'
import { withdrawRoutes } from './modules/withdraw/withdraw.routes.ts'
import { createOutflowService, type OutflowService } from './modules/outflow/outflow.service.ts'
import { createWithdrawService, type WithdrawService } from './modules/withdraw/withdraw.service.ts'
import { createUserService, type UserService } from './modules/user/user.service.ts'
import { registerDocs } from './plugins/docs.ts'
import { registerHealth } from './plugins/health.ts'
import { registerMetrics } from './plugins/metrics.ts'
import { registerBodyParsers } from './plugins/body.ts'
import { registerErrorHandling } from './plugins/errors.ts'
import { registerSignInLimits } from './plugins/sign-in-limits.ts'
import {
  registerAdminApp,
  registerSecurityHeaders,
  registerWebApp,
  type ShellSender,
} from './plugins/web.ts'
import { answerClientError, answerFrameworkError } from './security/client-error.ts'

export interface Services {
  settings: SettingsService
  users: UserService
  ledger: LedgerService
  accounts: AccountService
  outflows: OutflowService
  notices: NoticeService
  figures: FiguresService
  operators: OperatorService
  admin: AdminService
  withdrawals: WithdrawService
  recharges: RechargeService
  sale: SaleService
  staking: StakingService
  redemption: RedemptionService
  membership: MembershipService
  nodes: NodesService
  team: TeamService
  settlement: SettlementService
  settlementJob: SettlementJob
  content: ContentService
  uploads: UploadService
  chat: ChatService
  quotes: QuotesService
  ranking: RankingService
  por: PorService
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
    db: Database
    chain: ChainConnection | undefined
    /** True when the built web app is served at `/`. */
    /** Sends the web app's shell; null when no build is served. */
    webAppShell: ShellSender | null
    services: Services
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
  verifyTypedData?: TypedDataVerifier
  now?: () => number
  /** Where every rate limit counts (sign-in, chat); this process's memory when absent. */
  limits?: LimitStore
}

/**
 * Secrets a log line must never carry, wherever a caller puts them: session tokens, login
 * signatures, operator passwords, keys and authenticator secrets, and the raw bytes of a request
 * Node's parser refused (they hold its headers, `token` among them).
 */
const REDACTED_KEYS = [
  'token',
  'signature',
  'password',
  'privateKey',
  'secret',
  'totpSecret',
  'hotWalletKey',
  'rawPacket',
]

/**
 * The production logger: paths without query strings, secrets redacted; readable lines through
 * pino-pretty in the same process when the format is `pretty` (a terminal), JSON otherwise.
 */
export function loggerOptions(
  config: Pick<Config, 'logLevel'> &
    Partial<Pick<Config, 'chainRpcUrl' | 'databaseUrl' | 'logFormat'>>,
) {
  // Errors name the URL they failed on: an RPC provider's key or the database's password.
  const redact = redactUrls([config.chainRpcUrl, config.databaseUrl])
  return {
    level: config.logLevel,
    ...(config.logFormat === 'pretty'
      ? {
          stream: pinoPretty({
            colorize: true,
            translateTime: 'SYS:HH:MM:ss.l',
            ignore: 'pid,hostname',
          }),
        }
      : {}),
    // Every line a request's work logs names the request, as its answer does.
    mixin: requestIdMixin,
    // Payloads travel in the query string (spec §7): log the path only, never the values.
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        path: req.url.split('?')[0],
        ip: req.ip,
      }),
      err: (err: Error) => redact(stdSerializers.err(err)),
    },
    redact: {
      paths: ['req.headers', ...REDACTED_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`])],
      censor: '[redacted]',
    },
  }
}

/** Builds the whole HTTP app; `server.ts` only listens, tests use `app.inject`. */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(opts.config),
    trustProxy: opts.config.trustProxy,
    genReqId: requestIdOf,
    bodyLimit: 64 * 1024,
    // Operators' article texts travel in the query string: allow a longer request head.
    http: { maxHeaderSize: 64 * 1024 },
    // A longer head is refused by Node itself; it still gets the envelope, translated.
    clientErrorHandler: answerClientError,
    // Fastify's own refusals before routing leave in the envelope too.
    frameworkErrors: answerFrameworkError,
  })

  // First of all hooks: the answer names its request, and the rest of the request's life runs
  // with its id as the current one (so every line its work logs carries it).
  app.addHook('onRequest', (req, reply, done) => {
    void reply.header('x-request-id', req.id)
    withRequestId(req.id, done)
  })

  const settings = createSettingsService(opts.database.pool)
  const notices = createNoticeService({ pool: opts.database.pool })
  const users = createUserService({
    notices,
    pool: opts.database.pool,
    settings,
    // Contract wallets (EIP-1271) are checked through the chain when there is one.
    verifySignature: opts.verifySignature ?? createSignatureVerifier(opts.chain?.client),
    chainId: () => opts.chain?.chainId,
    ...(opts.now ? { now: opts.now } : {}),
  })
  app.decorate('config', opts.config)
  app.decorate('chain', opts.chain)
  app.decorate('db', opts.database)
  const ledger = createLedgerService(opts.database.pool)
  const outflows = createOutflowService({
    settings,
    verify: opts.verifyTypedData ?? createTypedDataVerifier(opts.chain?.client),
    chainId: () => opts.chain?.chainId,
    ...(opts.now ? { now: opts.now } : {}),
  })
  const accounts = createAccountService({
    pool: opts.database.pool,
    ledger,
    settings,
    outflows,
  })
  const operators = createOperatorService({
    pool: opts.database.pool,
    ledger,
    settings,
    // Authenticator codes follow the real clock, also in tests that move the business clock.
    secretKey: secretKeyLoader(opts.config),
  })
  const withdrawals = createWithdrawService({
    pool: opts.database.pool,
    ledger,
    settings,
    outflows,
    notices,
    chainId: () => opts.chain?.chainId,
  })
  const recharges = createRechargeService({
    pool: opts.database.pool,
    settings,
    chain: () => opts.chain,
  })
  const { pool } = opts.database
  const sale = createSaleService({ pool, ledger, settings })
  const staking = createStakingService({ pool, ledger, settings })
  const figures = createFiguresService({ pool, consensus: staking.summary })
  const redemption = createRedemptionService({ pool, ledger, settings, sale })
  const membership = createMembershipService({ pool, settings, sale })
  const nodes = createNodesService({ pool, settings, sale })
  const team = createTeamService({ pool, settings })
  const settlement = createSettlementService({ pool, ledger, settings, sale })
  const settlementJob = createSettlementJob({ pool, settings, settlement })
  const admin = createAdminService({
    pool: opts.database.pool,
    settings,
    withdrawals,
    settlement,
    signIns: (days) => users.signInsOfLastDays(days),
    ...(opts.now ? { now: opts.now } : {}),
  })
  const content = createContentService({ pool: opts.database.pool })
  const uploads = createUploadService({
    pool: opts.database.pool,
    dir: uploadsDirOf(opts.config.dataDir),
  })
  const limits = opts.limits ?? createMemoryLimitStore()
  const chat = createChatService({
    pool: opts.database.pool,
    settings,
    limits,
    ...(opts.now ? { now: opts.now } : {}),
  })
  const { ethPriceFeed } = opts.config
  const quotes = createQuotesService({
    pool: opts.database.pool,
    hopePrice: () => accounts.currentHopePrice(),
    feed: ethPriceFeed ? createHttpPriceFeed(ethPriceFeed) : undefined,
    log: (msg, extra) => app.log.warn(extra, msg),
    ...(opts.now ? { now: opts.now } : {}),
  })
  const ranking = createRankingService({
    pool: opts.database.pool,
    settings,
    ...(opts.now ? { now: opts.now } : {}),
  })
  const por = createPorService({
    pool: opts.database.pool,
    settings,
    sealKey: sealKeyLoader(opts.config),
    ...(opts.now ? { now: opts.now } : {}),
  })
  app.decorate('services', {
    settings,
    users,
    ledger,
    accounts,
    outflows,
    notices,
    figures,
    operators,
    admin,
    withdrawals,
    recharges,
    sale,
    staking,
    redemption,
    membership,
    nodes,
    team,
    settlement,
    settlementJob,
    content,
    uploads,
    chat,
    quotes,
    ranking,
    por,
  })

  // Limits come from the settings cache, refreshed on every user call before its handler runs.
  let lastSettings = await settings.get()
  const metrics = registerMetrics(app, {
    pool: opts.database.pool,
    chain: opts.chain,
    token: opts.config.metricsToken,
    tokenAddress: async () => (await settings.get()).chainTokenAddress,
    tokenDecimals: async () => (await settings.get()).chainTokenDecimals,
    signIns: () => users.signIns,
  })
  app.decorate('metrics', metrics)
  registerSignInLimits(app, () => lastSettings, opts.now, limits, metrics.signInFailed)
  app.addHook('onRequest', async (req) => {
    req.lang = langFromHeader(req.headers.lan)
    if (req.url.startsWith('/api/user/') || req.url.startsWith('/api/admin/login'))
      lastSettings = await settings.get()
  })

  registerBodyParsers(app)
  registerErrorHandling(app)
  registerSecurityHeaders(app)
  registerDocs(app)
  registerHealth(app, { pool: opts.database.pool, chain: opts.chain, limits })
  await app.register(userRoutes)
  await app.register(contentRoutes)
  await app.register(uploadRoutes)
  await app.register(accountRoutes)
  await app.register(figuresRoutes)
  await app.register(operatorRoutes)
  await app.register(adminRoutes)
  await app.register(noticeRoutes)
  await app.register(outflowRoutes)
  await app.register(withdrawRoutes)
  await app.register(rechargeRoutes)
  await app.register(stakingRoutes)
  await app.register(redemptionRoutes)
  await app.register(membershipRoutes)
  await app.register(nodesRoutes)
  await app.register(teamRoutes)
  await app.register(settlementRoutes)
  await app.register(chatRoutes)
  await app.register(quotesRoutes)
  await app.register(rankingRoutes)
  await app.register(porRoutes)
  await registerAdminApp(app, opts.config.adminDist)
  app.decorate(
    'webAppShell',
    await registerWebApp(app, opts.config.webDist, async () => ({
      banners: await content.bannersInEveryLang(),
    })),
  )
  return app
}
