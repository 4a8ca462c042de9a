import path from 'node:path'

export interface Config {
  port: number
  host: string
  /** Where the embedded database (and later the chain) keep their state. */
  dataDir: string
  /** External PostgreSQL; when absent the embedded one under dataDir is used. */
  databaseUrl: string | undefined
  /** Origin used in invitation links; derived from the request when absent. */
  publicUrl: string | undefined
  /** Built web app served at `/`; absent in API-only tests. */
  webDist: string | undefined
  seedDemo: boolean
  logLevel: string
  /** Trust X-Forwarded-* from a load balancer in front. */
  trustProxy: boolean
  /** An EVM JSON-RPC endpoint; when absent a local Anvil chain under dataDir is started. */
  chainRpcUrl: string | undefined
  chainId: number | undefined
  /** Seconds between local chain blocks (so confirmations advance). */
  chainBlockTimeSec: number
}

const repoRoot = path.resolve(import.meta.dirname, '../../..')

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got "${env.PORT}"`)
  }
  const databaseUrl = env.DATABASE_URL || undefined
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'data')),
    databaseUrl,
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, '') || undefined,
    webDist: env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist'),
    seedDemo: env.SEED_DEMO ? env.SEED_DEMO === 'true' : !databaseUrl,
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: env.TRUST_PROXY === 'true',
    chainRpcUrl: env.CHAIN_RPC_URL || undefined,
    chainId: env.CHAIN_ID ? Number(env.CHAIN_ID) : undefined,
    chainBlockTimeSec: Number(env.CHAIN_BLOCK_TIME ?? 1),
  }
}
