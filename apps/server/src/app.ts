import { langFromHeader, loopbackHttpOrigin, type Lang } from '@hope/api'
import Fastify, { type FastifyInstance } from 'fastify'
import { stdSerializers } from 'pino'
import pinoPretty from 'pino-pretty'
import type { ChainConnection } from './chain/chain.service.ts'
import type { Config } from './config.ts'
import type { Database } from './db/pool.ts'
import { createMemoryLimitStore, type LimitStore } from './lib/limit-store.ts'
import { redactUrls } from './lib/redact-urls.ts'
import { requestIdMixin, requestIdOf, withRequestId } from './lib/request-context.ts'
import type { SignatureVerifier, TypedDataVerifier } from './lib/signature.ts'
import type { AccountService } from './modules/account/account.service.ts'
import { accountModule } from './modules/account/account.module.ts'
import { figuresModule } from './modules/account/figures.module.ts'
import type { FiguresService } from './modules/account/figures.service.ts'
import { chatModule } from './modules/chat/chat.module.ts'
import type { ChatService } from './modules/chat/chat.service.ts'
import { consoleModule } from './modules/console/console.module.ts'
import type { AdminService } from './modules/console/console.service.ts'
import { contentModule } from './modules/content/content.module.ts'
import type { ContentService } from './modules/content/content.service.ts'
import { ledgerModule } from './modules/ledger/ledger.module.ts'
import type { LedgerService } from './modules/ledger/ledger.service.ts'
import { membershipModule } from './modules/membership/membership.module.ts'
import type { MembershipService } from './modules/membership/membership.service.ts'
import { nodesModule } from './modules/nodes/nodes.module.ts'
import type { NodesService } from './modules/nodes/nodes.service.ts'
import { noticeModule } from './modules/notice/notice.module.ts'
import type { NoticeService } from './modules/notice/notice.service.ts'
import { operatorModule } from './modules/operator/operator.module.ts'
import type { OperatorService } from './modules/operator/operator.service.ts'
import { outflowModule } from './modules/outflow/outflow.module.ts'
import type { OutflowService } from './modules/outflow/outflow.service.ts'
import { porModule } from './modules/por/por.module.ts'
import type { PorService } from './modules/por/por.service.ts'
import { quotesModule } from './modules/quotes/quotes.module.ts'
import type { QuotesService } from './modules/quotes/quotes.service.ts'
import { rankingModule } from './modules/ranking/ranking.module.ts'
import type { RankingService } from './modules/ranking/ranking.service.ts'
import { rechargeModule } from './modules/recharge/recharge.module.ts'
import type { RechargeService } from './modules/recharge/recharge.service.ts'
import { redemptionModule } from './modules/redemption/redemption.module.ts'
import type { RedemptionService } from './modules/redemption/redemption.service.ts'
import { saleModule } from './modules/sale/sale.module.ts'
import type { SaleService } from './modules/sale/sale.service.ts'
import { settingsModule } from './modules/settings/settings.module.ts'
import type { Settings } from './modules/settings/settings.rules.ts'
import type { SettingsService } from './modules/settings/settings.service.ts'
import { settlementModule } from './modules/settlement/settlement.module.ts'
import type { SettlementService } from './modules/settlement/settlement.service.ts'
import { stakingModule } from './modules/staking/staking.module.ts'
import type { StakingService } from './modules/staking/staking.service.ts'
import { teamModule } from './modules/team/team.module.ts'
import type { TeamService } from './modules/team/team.service.ts'
import { uploadModule } from './modules/upload/upload.module.ts'
import type { UploadService } from './modules/upload/upload.service.ts'
import { userModule } from './modules/user/user.module.ts'
import type { UserService } from './modules/user/user.service.ts'
import { withdrawModule } from './modules/withdraw/withdraw.module.ts'
import type { WithdrawService } from './modules/withdraw/withdraw.service.ts'
import type { AppModule, JobContext, ModuleOptions } from './modules/define-module.ts'
import { alarmModule } from './modules/alarm/alarm.module.ts'
import { auditModule } from './modules/audit/audit.module.ts'
import { reconcileModule } from './modules/reconcile/reconcile.module.ts'
import type { JobDefinition } from './jobs/job.ts'
import { registerDocs } from './plugins/docs.ts'
import { createDependencyProbe, registerHealth } from './plugins/health.ts'
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
    /** Sends the web app's shell; null when no build is served. */
    webAppShell: ShellSender | null
    services: Services
    /** Every module's background jobs, in the order of the modules; the server starts them. */
    jobs: (ctx: Omit<JobContext, 'app'>) => JobDefinition[]
  }
  interface FastifyRequest {
    lang: Lang
  }
}

/** The modules, from the foundations up (SERVER_MODULE_ORDER in eslint.config.js). */
const MODULES: AppModule[] = [
  settingsModule,
  ledgerModule,
  auditModule,
  alarmModule,
  noticeModule,
  userModule,
  outflowModule,
  operatorModule,
  uploadModule,
  contentModule,
  rankingModule,
  chatModule,
  teamModule,
  rechargeModule,
  saleModule,
  withdrawModule,
  reconcileModule,
  stakingModule,
  accountModule,
  figuresModule,
  quotesModule,
  redemptionModule,
  membershipModule,
  nodesModule,
  settlementModule,
  porModule,
  consoleModule,
]

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
    Partial<Pick<Config, 'chainRpcUrl' | 'chainRpcUrls' | 'databaseUrl' | 'logFormat'>>,
) {
  // Errors name the URL they failed on: an RPC provider's key or the database's password.
  const redact = redactUrls([
    config.chainRpcUrl,
    ...(config.chainRpcUrls ?? []),
    config.databaseUrl,
  ])
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

  app.decorate('config', opts.config)
  app.decorate('chain', opts.chain)
  app.decorate('db', opts.database)
  // Filled by the modules below, each adding its service.
  app.decorate('services', {} as Services)
  const limits = opts.limits ?? createMemoryLimitStore()

  // Limits come from the settings cache: read once the modules are in (below), then refreshed
  // on every user call before its handler runs.
  let lastSettings: Settings
  const dependencies = createDependencyProbe({
    pool: opts.database.pool,
    chain: opts.chain,
    limits,
  })
  const metrics = registerMetrics(app, {
    pool: opts.database.pool,
    chain: opts.chain,
    token: opts.config.metricsToken,
    tokenAddress: async () => (await app.services.settings.get()).chainTokenAddress,
    tokenDecimals: async () => (await app.services.settings.get()).chainTokenDecimals,
    vaultAddress: async () => (await app.services.settings.get()).payoutVaultAddress,
    payoutGasLimit: async () => (await app.services.settings.get()).payoutGasLimit,
    signIns: () => app.services.users.signIns,
    dependencies,
  })
  app.decorate('metrics', metrics)
  registerSignInLimits(app, () => lastSettings, opts.now, limits, metrics.signInFailed)
  app.addHook('onRequest', async (req) => {
    req.lang = langFromHeader(req.headers.lan)
    if (req.url.startsWith('/api/user/') || req.url.startsWith('/api/admin/login'))
      lastSettings = await app.services.settings.get()
  })

  registerBodyParsers(app)
  registerErrorHandling(app)
  // A chain on this machine's loopback (the local chain) is one the proof check may read.
  const localChainOrigin = loopbackHttpOrigin(opts.chain?.rpcUrl)
  registerSecurityHeaders(app, localChainOrigin ? [localChainOrigin] : [])
  registerDocs(app)
  registerHealth(app, dependencies)

  // The modules in the order of SERVER_MODULE_ORDER (eslint.config.js): each one's services are
  // made from the services of those before it.
  const moduleOptions: ModuleOptions = {
    now: opts.now,
    limits,
    verifySignature: opts.verifySignature,
    verifyTypedData: opts.verifyTypedData,
  }
  for (const module of MODULES) await app.register(module, moduleOptions)
  app.decorate('jobs', (ctx: Omit<JobContext, 'app'>) =>
    MODULES.flatMap((module) => module.jobs({ ...ctx, app })),
  )
  lastSettings = await app.services.settings.get()

  await registerAdminApp(app, opts.config.adminDist)
  app.decorate(
    'webAppShell',
    await registerWebApp(app, opts.config.webDist, async () => ({
      banners: await app.services.content.bannersInEveryLang(),
      // The app has the wallet sign an outflow before sending it, not after a refusal.
      outflowSignature: (await app.services.settings.get()).outflowSignature,
    })),
  )
  return app
}
