import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DEFAULT_CONNECTION_TIMEOUTS, type ConnectionTimeouts } from './db/pool.ts'
import { REPO_ROOT } from './paths.ts'
import { rpcUrlsOf } from './chain/chain.transport.ts'

export interface Config {
  port: number
  host: string
  /** Where the embedded database (and later the chain) keep their state. */
  dataDir: string
  /**
   * External PostgreSQL, as the owner of the schema (migrations run as it); when absent the
   * embedded one under dataDir is used.
   */
  databaseUrl: string | undefined
  /**
   * APP_DATABASE_URL: the web workers' and the jobs' connection, as the role hope_app; when
   * absent, the owner's URL with that user (enough for the embedded server and trusted local
   * connections; a managed server with passwords needs it given).
   */
  appDatabaseUrl: string | undefined
  /** SIGNER_DATABASE_URL: the signer's connection, as the role hope_signer; derived likewise. */
  signerDatabaseUrl: string | undefined
  /**
   * DB_STATEMENT_TIMEOUT_MS (5000), DB_LOCK_TIMEOUT_MS (2000), DB_IDLE_TX_TIMEOUT_MS (10000):
   * the limits on every connection of the app's and the signer's pools (0 turns one off); see
   * `loadDbTimeouts`.
   */
  dbTimeouts: ConnectionTimeouts
  /**
   * HOT_WALLET_KEY_FILE and POR_PUBLISHER_KEY_FILE: files (mode 0600) holding the hot wallet's and
   * the proof-of-liabilities publisher's private keys, which only the signer process receives.
   * A key never comes through the environment: a process's initial environment stays readable
   * in /proc for as long as it runs.
   */
  keyFiles: { hotWallet: string | undefined; porPublisher: string | undefined }
  /**
   * PUBLIC_URL: the origin users open HOPE at. Sign-in messages name it (never the request's
   * Host) and invitation links start with it. On the loopback outside production it defaults to
   * where the server listens (`http://localhost:8080`); elsewhere it must be given, and
   * `requirePublicUrl` stops the start without it.
   */
  publicUrl: string | undefined
  /**
   * PUBLIC_ORIGINS: other origins the same deployment answers on (comma-separated, e.g.
   * `https://www.hope.example`); a sign-in message naming one of them is accepted too.
   */
  publicOrigins: string[]
  /** Built web app served at `/`; absent in API-only tests. */
  webDist: string | undefined
  /** Built operator console served at `/admin/`; absent when it was not built. */
  adminDist: string | undefined
  seedDemo: boolean
  logLevel: string
  /**
   * `pretty`: readable lines for a person at a terminal; `json`: one JSON object a line, for
   * log collectors. LOG_FORMAT chooses; by default pretty when stdout is a terminal.
   */
  logFormat: 'pretty' | 'json'
  /** Trust X-Forwarded-* from a load balancer in front. */
  trustProxy: boolean
  /** An EVM JSON-RPC endpoint; when absent a local Anvil chain under dataDir is started. */
  /** The first chain endpoint; undefined runs the local Anvil. */
  chainRpcUrl: string | undefined
  /** Every endpoint: CHAIN_RPC_URLS (a comma list), else CHAIN_RPC_URL. */
  chainRpcUrls: string[]
  /** How long one chain call may take on one endpoint before the next is asked. */
  chainRpcTimeoutMs: number
  chainId: number | undefined
  /** Seconds between local chain blocks (so confirmations advance). */
  chainBlockTimeSec: number
  /**
   * An HTTP source of the ETH price in USD (ETH_PRICE_URL, the dotted path of the price in its
   * JSON answer ETH_PRICE_PATH, ETH_PRICE_TIMEOUT_MS); when absent operators set the price.
   */
  ethPriceFeed: { url: string; path: string; timeoutMs: number } | undefined
  /**
   * OPERATOR_SECRET_KEY: the key sealing operators' authenticator secrets (32 bytes, hex or
   * base64); when absent, a key file under dataDir is made on first use.
   */
  operatorSecretKey: string | undefined
  /**
   * POR_SEAL_KEY: the key sealing stored proofs of liabilities (32 bytes, hex or base64); when
   * absent, a key file under dataDir is made on first use.
   */
  porSealKey: string | undefined
  /** REDIS_URL: where rate limits count when several processes serve; optional. */
  redisUrl: string | undefined
  /**
   * REDIS_PREFIX (`hope:`): the start of every key HOPE writes in Redis, so that several
   * deployments can share one Redis.
   */
  redisPrefix: string
  /** METRICS_TOKEN: lets a scraper off this machine read `/metrics` (as a Bearer token). */
  metricsToken: string | undefined
  /** Backups of the embedded database: see `backupConfig`. */
  backup: BackupConfig
}

export interface BackupConfig {
  /**
   * BACKUP_DIR: where the embedded PostgreSQL archives its WAL (`wal/`) and `npm run backup`
   * keeps base backups (`base/`). Default `./backup` beside the default data, or
   * `DATA_DIR/backup` when DATA_DIR is set; put it on another disk in production.
   */
  dir: string
  /** BACKUP_KEEP_DAYS (7): base backups older than this go, the newest always stays. */
  keepDays: number
  /**
   * BACKUP_EVERY_HOURS (24; 0 never): the running app takes a base backup when the newest is
   * older than this.
   */
  everyHours: number
  /**
   * BACKUP_ARCHIVE_TIMEOUT_S (60): the longest a written change waits before its WAL segment
   * is archived, so what a lost disk may lose.
   */
  archiveTimeoutS: number
  /**
   * BACKUP_KEY (32 bytes as 64 hex digits or base64): each base backup carries the operator key
   * and the proof seal key (DATA_DIR/operator-secret.key, DATA_DIR/por-seal.key) encrypted with
   * it, and a restore needs it to put them back. Without it, base backups hold no keys.
   */
  key: Buffer | undefined
}

const repoRoot = REPO_ROOT

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got "${env.PORT}"`)
  }
  const databaseUrl = env.DATABASE_URL || undefined
  for (const name of ['HOT_WALLET_KEY', 'POR_PUBLISHER_KEY'])
    if (env[name])
      throw new Error(
        `${name} is set in the environment, where any process started from here and /proc keep it: ` +
          `put the key in a file only you can read (chmod 600) and set ${name}_FILE to its path instead`,
      )
  const keyFiles = {
    hotWallet: checkedKeyFile(env, 'HOT_WALLET_KEY_FILE'),
    porPublisher: checkedKeyFile(env, 'POR_PUBLISHER_KEY_FILE'),
  }
  const publicUrl = env.PUBLIC_URL ? publicOrigin(env.PUBLIC_URL, 'PUBLIC_URL') : undefined
  // Without PUBLIC_URL the server stays on this machine unless HOST says otherwise.
  const host = env.HOST || (publicUrl ? '0.0.0.0' : 'localhost')
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'data')),
    databaseUrl,
    appDatabaseUrl: env.APP_DATABASE_URL || undefined,
    signerDatabaseUrl: env.SIGNER_DATABASE_URL || undefined,
    dbTimeouts: loadDbTimeouts(env),
    keyFiles,
    publicUrl:
      publicUrl ??
      (LOOPBACK_HOSTS.has(host) && env.NODE_ENV !== 'production' && port !== 0
        ? `http://${host.includes(':') ? `[${host}]` : host}:${port}`
        : undefined),
    publicOrigins: (env.PUBLIC_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean)
      .map((o) => publicOrigin(o, 'PUBLIC_ORIGINS')),
    webDist: env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist'),
    adminDist: env.ADMIN_DIST ?? path.join(repoRoot, 'apps/admin/dist'),
    seedDemo: env.SEED_DEMO ? env.SEED_DEMO === 'true' : !databaseUrl,
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat:
      env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty'
        ? env.LOG_FORMAT
        : process.stdout.isTTY
          ? 'pretty'
          : 'json',
    trustProxy: env.TRUST_PROXY === 'true',
    chainRpcUrl: rpcUrlsOf(env)[0],
    chainRpcUrls: rpcUrlsOf(env),
    chainRpcTimeoutMs: Number(env.CHAIN_RPC_TIMEOUT_MS ?? 10_000),
    chainId: env.CHAIN_ID ? Number(env.CHAIN_ID) : undefined,
    chainBlockTimeSec: Number(env.CHAIN_BLOCK_TIME ?? 1),
    ethPriceFeed: loadEthPriceFeed(env),
    operatorSecretKey: env.OPERATOR_SECRET_KEY || undefined,
    porSealKey: env.POR_SEAL_KEY || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX ?? 'hope:',
    metricsToken: env.METRICS_TOKEN || undefined,
    backup: loadBackupConfig(env),
  }
}

/** Hosts that only this machine reaches: there the public origin may default to the listener. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost'])

/** `value` as an origin (`https://hope.example`), or the reason it is not one. */
function publicOrigin(value: string, name: string): string {
  let url: URL | undefined
  try {
    url = new URL(value.trim())
  } catch {
    // reported below
  }
  if (
    !url ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.username ||
    url.password ||
    url.pathname !== '/' ||
    url.search ||
    url.hash
  )
    throw new Error(
      `${name} must be the address users open HOPE at, as an http(s) origin without a path ` +
        `(e.g. https://hope.example), got "${value}"`,
    )
  return url.origin
}

/**
 * The origin sign-in messages name, for a process that serves users: PUBLIC_URL, or its
 * loopback default. Listening beyond this machine (HOST other than 127.0.0.1, ::1, localhost)
 * or with NODE_ENV=production, it must be given: the request's Host is the client's to choose,
 * so a phishing site forwarding requests could otherwise have users sign in to itself.
 */
export function requirePublicUrl(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl
  const why = !LOOPBACK_HOSTS.has(config.host)
    ? `the server listens on ${config.host}, beyond this machine (HOST)`
    : config.port === 0
      ? 'the server listens on a port of its choosing (PORT=0)'
      : 'NODE_ENV is production'
  throw new Error(
    `PUBLIC_URL is required: ${why}. Set it to the address users open HOPE at, e.g. ` +
      `PUBLIC_URL=https://hope.example (other addresses of the same site go in PUBLIC_ORIGINS); ` +
      `sign-in messages name it, never the request's Host`,
  )
}

/** The absolute path the variable `name` gives, once the file is found private to its owner. */
function checkedKeyFile(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const given = env[name]
  if (!given) return undefined
  const file = path.resolve(given)
  let mode: number
  try {
    mode = fs.statSync(file).mode
  } catch (e) {
    throw new Error(`${name}: cannot read ${file} (${(e as NodeJS.ErrnoException).code})`)
  }
  if (mode & 0o077)
    throw new Error(
      `${name}: ${file} is open to other users (mode 0${(mode & 0o777).toString(8)}); ` +
        `make it readable by its owner only: chmod 600 ${file}`,
    )
  return file
}

/**
 * The private key in `file` (64 hex digits, 0x optional, surrounding whitespace ignored), after
 * the same check as at start: a file open to other users is refused. `name` is the variable
 * that named it, for the messages; the key itself never appears in one.
 */
export function readKeyFile(file: string, name: string): `0x${string}` {
  checkedKeyFile({ [name]: file }, name)
  const text = fs.readFileSync(file, 'utf8').trim()
  const hex = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text
  if (!/^[0-9a-fA-F]{64}$/.test(hex))
    throw new Error(`${name}: ${file} does not hold a private key (64 hex digits)`)
  return `0x${hex.toLowerCase()}`
}

function loadBackupConfig(env: NodeJS.ProcessEnv): BackupConfig {
  const dir = path.resolve(
    env.BACKUP_DIR ||
      (env.DATA_DIR ? path.join(env.DATA_DIR, 'backup') : path.join(repoRoot, 'backup')),
  )
  // The directory is written into PostgreSQL's archive and restore commands.
  if (/['\\%\n]/.test(dir))
    throw new Error(`BACKUP_DIR must not contain ' \\ % or a newline: ${dir}`)
  const keepDays = Number(env.BACKUP_KEEP_DAYS ?? 7)
  if (!Number.isInteger(keepDays) || keepDays < 1 || keepDays > 3650)
    throw new Error(`BACKUP_KEEP_DAYS must be 1..3650, got "${env.BACKUP_KEEP_DAYS}"`)
  const archiveTimeoutS = Number(env.BACKUP_ARCHIVE_TIMEOUT_S ?? 60)
  if (!Number.isInteger(archiveTimeoutS) || archiveTimeoutS < 1 || archiveTimeoutS > 3600)
    throw new Error(
      `BACKUP_ARCHIVE_TIMEOUT_S must be 1..3600, got "${env.BACKUP_ARCHIVE_TIMEOUT_S}"`,
    )
  const everyHours = Number(env.BACKUP_EVERY_HOURS ?? 24)
  if (!Number.isInteger(everyHours) || everyHours < 0 || everyHours > 24 * 365)
    throw new Error(`BACKUP_EVERY_HOURS must be 0..8760, got "${env.BACKUP_EVERY_HOURS}"`)
  let key: Buffer | undefined
  if (env.BACKUP_KEY) {
    const t = env.BACKUP_KEY.trim()
    key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64')
    if (key.length !== 32) throw new Error('BACKUP_KEY must be 32 bytes as 64 hex digits or base64')
  }
  return { dir, keepDays, archiveTimeoutS, everyHours, key }
}

/**
 * The connection limits from the environment, read at start (the signer reads them alone, not
 * the whole configuration). Each is milliseconds, 0 for none, up to an hour.
 */
export function loadDbTimeouts(env: NodeJS.ProcessEnv): ConnectionTimeouts {
  const ms = (name: string, fallback: number): number => {
    const given = env[name]
    if (given === undefined || given === '') return fallback
    const n = Number(given)
    if (!Number.isInteger(n) || n < 0 || n > 3_600_000)
      throw new Error(`${name} must be milliseconds 0..3600000 (0: no limit), got "${given}"`)
    return n
  }
  return {
    statementMs: ms('DB_STATEMENT_TIMEOUT_MS', DEFAULT_CONNECTION_TIMEOUTS.statementMs),
    lockMs: ms('DB_LOCK_TIMEOUT_MS', DEFAULT_CONNECTION_TIMEOUTS.lockMs),
    idleInTransactionMs: ms(
      'DB_IDLE_TX_TIMEOUT_MS',
      DEFAULT_CONNECTION_TIMEOUTS.idleInTransactionMs,
    ),
  }
}

/** The ETH price feed from the environment; a half-given one stops the start with the reason. */
function loadEthPriceFeed(env: NodeJS.ProcessEnv): Config['ethPriceFeed'] {
  const url = env.ETH_PRICE_URL || undefined
  if (!url) return undefined
  if (!/^https?:\/\//.test(url))
    throw new Error(`ETH_PRICE_URL must be an http(s) URL, got "${url}"`)
  const path = env.ETH_PRICE_PATH ?? ''
  if (!path)
    throw new Error(
      'ETH_PRICE_PATH (where the price is in the JSON answer, e.g. "ethereum.usd") is required',
    )
  const timeoutMs = Number(env.ETH_PRICE_TIMEOUT_MS ?? 5_000)
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 60_000)
    throw new Error(`ETH_PRICE_TIMEOUT_MS must be 100..60000, got "${env.ETH_PRICE_TIMEOUT_MS}"`)
  return { url, path, timeoutMs }
}

/** WEB_CONCURRENCY: a count of workers, or `auto` for one per core; 1 when unset. */
export function workerCount(value: string | undefined): number {
  if (!value) return 1
  if (value === 'auto') return os.availableParallelism()
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new Error(`WEB_CONCURRENCY must be a count of workers or "auto", got "${value}"`)
  return n
}

/**
 * How this process was started and what its parent handed it: a cluster's primary gives its
 * workers the signer's URL and addresses and says it migrated already; the signer is this entry
 * forked with HOPE_ROLE=signer. Read here, like every other variable, never elsewhere.
 */
export interface ProcessSetup {
  /** HOPE_ROLE: `signer` in the signer process. */
  role: 'server' | 'signer'
  /** HOPE_CLUSTER_PREPARED: the primary migrated and seeded before forking this worker. */
  clusterPrepared: boolean
  /** SIGNER_URL, SIGNER_TOKEN: a signer run apart (or the primary's, in a worker). */
  signerUrl: string | undefined
  signerToken: string | undefined
  /** HOT_WALLET_ADDRESS, POR_PUBLISHER_ADDRESS: the keys' addresses the signer holds. */
  hotWalletAddress: string | undefined
  porPublisherAddress: string | undefined
  /** HOPE_SIGNER_SECRETS=pipe: the signer reads its keys from the pipe its parent opened. */
  signerSecretsByPipe: boolean
  /** SIGNER_HOST, SIGNER_PORT: where the signer listens (loopback, any free port by default). */
  signerHost: string
  signerPort: number
  /** WEB_CONCURRENCY: the workers of a cluster (1: a lone process). */
  workers: number
  /** WORKER_STALL_MS: a worker whose event loop has not answered this long is replaced. */
  workerStallMs: number
}

export function loadProcessSetup(env: NodeJS.ProcessEnv = process.env): ProcessSetup {
  return {
    role: env.HOPE_ROLE === 'signer' ? 'signer' : 'server',
    clusterPrepared: !!env.HOPE_CLUSTER_PREPARED,
    signerUrl: env.SIGNER_URL || undefined,
    signerToken: env.SIGNER_TOKEN || undefined,
    hotWalletAddress: env.HOT_WALLET_ADDRESS || undefined,
    porPublisherAddress: env.POR_PUBLISHER_ADDRESS || undefined,
    signerSecretsByPipe: env.HOPE_SIGNER_SECRETS === 'pipe',
    signerHost: env.SIGNER_HOST || '127.0.0.1',
    signerPort: Number(env.SIGNER_PORT) || 0,
    workers: workerCount(env.WEB_CONCURRENCY),
    workerStallMs: Number(env.WORKER_STALL_MS) || 30_000,
  }
}

/** The variables' URLs that may carry credentials: messages name them only redacted. */
export function credentialUrls(env: NodeJS.ProcessEnv = process.env): (string | undefined)[] {
  return [
    env.CHAIN_RPC_URL,
    ...(env.CHAIN_RPC_URLS ?? '').split(','),
    env.DATABASE_URL,
    env.APP_DATABASE_URL,
    env.SIGNER_DATABASE_URL,
  ]
}

/** The signer's own caps (SIGNER_HOURLY_CAP_USDT, SIGNER_DAILY_CAP_USDT). */
export interface SignerCaps {
  /** USDT (decimal strings) of distinct withdrawals the signer pays per hour and per day. */
  hourUsdt: string
  dayUsdt: string
}

export const DEFAULT_SIGNER_CAPS: SignerCaps = { hourUsdt: '50000', dayUsdt: '200000' }

/** SIGNER_HOURLY_CAP_USDT and SIGNER_DAILY_CAP_USDT, else the defaults. */
export function signerCapsFrom(env: NodeJS.ProcessEnv): SignerCaps {
  const read = (v: string | undefined, fallback: string) => {
    if (!v) return fallback
    if (!/^\d{1,15}(\.\d{1,6})?$/.test(v)) throw new Error(`a signer cap must be USDT, got "${v}"`)
    return v
  }
  return {
    hourUsdt: read(env.SIGNER_HOURLY_CAP_USDT, DEFAULT_SIGNER_CAPS.hourUsdt),
    dayUsdt: read(env.SIGNER_DAILY_CAP_USDT, DEFAULT_SIGNER_CAPS.dayUsdt),
  }
}
