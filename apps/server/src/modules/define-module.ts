import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync } from 'fastify'
import type pg from 'pg'
import type { LocalAccount } from 'viem'
import type { Services } from '../app.ts'
import type { ChainConnection } from '../chain/chain.service.ts'
import type { JobDefinition } from '../jobs/job.ts'
import type { LimitStore } from '../lib/limit-store.ts'
import type { SignatureVerifier, TypedDataVerifier } from '../lib/signature.ts'
import type { PayoutSigner } from '../signer/signer.service.ts'

/** What `app.ts` hands every module: the business clock (the real one when absent) and more. */
export interface ModuleOptions {
  now?: (() => number) | undefined
  /** Where the rate limits count. */
  limits: LimitStore
  verifySignature?: SignatureVerifier | undefined
  verifyTypedData?: TypedDataVerifier | undefined
}

/**
 * What a module's jobs are made from, once the app answers and the signer does: the pool, the
 * chain, the hot wallet paying withdrawals and the account publishing the proof of liabilities
 * (each null when its key is not configured), the log, and the app with its services.
 */
export interface JobContext {
  app: FastifyInstance
  pool: pg.Pool
  chain: ChainConnection
  hotWallet: PayoutSigner | null
  porPublisher: LocalAccount | null
  log: FastifyBaseLogger
}

export interface ModuleDefinition {
  name: string
  /** Its services, made from those of the modules before it; added to `app.services`. */
  services?: (app: FastifyInstance, opts: ModuleOptions) => Partial<Services>
  /** Its routes. */
  routes?: FastifyPluginAsync
  /** Its background jobs, in the order they start. */
  jobs?: (ctx: JobContext) => JobDefinition[]
}

/** A module's plugin, carrying its jobs for the server to start. */
export type AppModule = FastifyPluginAsync<ModuleOptions> & {
  moduleName: string
  jobs: (ctx: JobContext) => JobDefinition[]
}

/**
 * A module's one declaration: its name, its services, its routes and its jobs. Its plugin adds
 * the services to `app.services` and registers the routes; it runs on the app itself rather
 * than in a context of its own (as `fastify-plugin` would have it), so the services it adds are
 * there for every module after it. The jobs are made only where the server starts them.
 */
export function defineModule(def: ModuleDefinition): AppModule {
  const plugin = async (app: FastifyInstance, opts: ModuleOptions) => {
    if (def.services) Object.assign(app.services, def.services(app, opts))
    if (def.routes) await app.register(def.routes)
  }
  return Object.assign(plugin, {
    moduleName: def.name,
    jobs: def.jobs ?? (() => []),
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: `${def.name} module`,
  })
}
