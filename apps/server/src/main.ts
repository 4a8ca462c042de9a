// The server: the database (embedded or DATABASE_URL), the chain (a local Anvil or
// CHAIN_RPC_URL), the HTTP app and the background jobs. Loaded by server.ts.
import { buildApp } from './app.ts'
import { writeLocalChainNote, type LocalChain } from './chain/anvil.ts'
import {
  checkTokenDecimals,
  connectChain,
  connectExternalChain,
  type ChainConnection,
} from './chain/chain.service.ts'
import { configureLocalChain } from './chain/local-chain.ts'
import { toAccount } from 'viem/accounts'
import type { Address, Hex } from 'viem'
import { startJob } from './jobs/interval-job.ts'
import { createSettingsService } from './modules/settings/settings.service.ts'
import {
  credentialUrls,
  loadConfig,
  loadProcessSetup,
  requirePublicUrl,
  type Config,
} from './config.ts'
import { startLog, startServices, takeEarlyStart, type EarlyStart } from './start-early.ts'
import { prepareRoleUrls, roleUrlsOf, type RoleUrls } from './db/app-database.ts'
import { migrate } from './db/migrate.ts'
import { openDatabase, type Database } from './db/pool.ts'
import { DEMO_ROOT, seedDemo } from './db/seed.ts'
import { openLimitStore } from './lib/limit-store.ts'
import { redactUrls } from './lib/redact-urls.ts'
import { uploadsDirOf } from './modules/upload/upload.service.ts'
import { createRemoteSigner } from './signer/signer.channel.ts'
import { signerToken, startSignerWithOwnKeys, type SignerProcess } from './signer/signer.process.ts'
import type { PayoutSigner, PorSigner, UnsignedTx } from './signer/signer.service.ts'

const ZERO = '0x0000000000000000000000000000000000000000' as Address

/** An account whose transactions the signer signs (it answers only for what it allows). */
function remoteAccount(address: Address, signPor: (tx: UnsignedTx) => Promise<Hex>) {
  const unsupported = () => Promise.reject(new Error('the signer signs transactions only'))
  return toAccount({
    address,
    signMessage: unsupported,
    signTypedData: unsupported,
    signTransaction: (tx) => signPor(tx as UnsignedTx),
  })
}

/** Says what the start has done, with the time since the process began. */
const started = (what: string) => {
  const seconds = Number((performance.now() / 1000).toFixed(2))
  startLog.info({ secondsAfterStart: seconds }, `${what} (${seconds} s after start)`)
}

/**
 * Waits for the database (the embedded one once it has started), brings its schema up to date
 * and returns the URL each role connects with.
 */
async function migrateDatabase(
  config: Config,
  embeddedStart: EarlyStart['database'],
): Promise<RoleUrls> {
  let url = config.databaseUrl
  if (!url) {
    url = (await embeddedStart!).url
    started('database started')
  }
  // A cluster's primary (cluster.ts) has migrated and seeded before forking this worker, and
  // given it the app role's URL. Otherwise the owner migrates, and the app connects as hope_app.
  let roles = roleUrlsOf(config, url)
  if (!loadProcessSetup().clusterPrepared) {
    const setup = openDatabase(url, 4, { stallMs: 0 })
    try {
      await migrate(setup.pool)
      if (config.seedDemo) await seedDemo(setup.pool, { uploadsDir: uploadsDirOf(config.dataDir) })
      roles = await prepareRoleUrls(setup.pool, config, url)
    } finally {
      await setup.close()
    }
  }
  started('database migrated')
  return roles
}

/** The chain: a configured endpoint, or the local Anvil keeping its state under DATA_DIR. */
async function openChain(
  config: Config,
  anvilLaunch: EarlyStart['anvil'],
): Promise<{ anvil: LocalChain | null; chain: ChainConnection }> {
  if (config.chainRpcUrl) {
    const chain = await connectExternalChain(config.chainRpcUrls, config.chainId, {
      timeoutMs: config.chainRpcTimeoutMs,
    })
    return { anvil: null, chain }
  }
  const anvil = await anvilLaunch!
  return { anvil, chain: connectChain(anvil.url, anvil.chainId) }
}

/**
 * Once Anvil answers, the local chain's setup (its contracts, deployed on a fresh chain, and the
 * settings that point at them); then the check of the token's decimals.
 */
async function setUpChain(
  config: Config,
  anvilLaunch: EarlyStart['anvil'],
  chain: ChainConnection,
  database: Database,
): Promise<void> {
  if (anvilLaunch) {
    const local = await anvilLaunch
    await local.ready
    writeLocalChainNote(config.dataDir, local.url)
    started('chain answering')
    await configureLocalChain(createSettingsService(database.pool), local.url, {
      freshChain: local.fresh,
    })
    started('chain ready')
  }
  await checkTokenDecimals(chain, createSettingsService(database.pool))
}

/** The error a failed listen becomes: a port taken or not allowed, said plainly. */
function listenError(config: Config, e: unknown): Error {
  const code = (e as NodeJS.ErrnoException).code
  return new Error(
    code === 'EADDRINUSE'
      ? `port ${config.port} on ${config.host} is in use by another program; stop it or set PORT`
      : `could not listen on ${config.host}:${config.port}: ${e instanceof Error ? e.message : e}`,
    { cause: e },
  )
}

type Signer = PayoutSigner & Partial<PorSigner> & { porPublisher: Address | null }

/**
 * The keys live in the signer process only: a worker of a cluster asks its primary's signer
 * (SIGNER_URL); a single process starts its own (after the app answers: it reads the settings
 * the chain's setup wrote) and forgets the keys here. `starting` hears of a signer process being
 * started, so that a stop can end it.
 */
async function connectSigner(
  config: Config,
  migrated: Promise<RoleUrls>,
  starting: (signer: Promise<SignerProcess | null>) => void,
): Promise<Signer | null> {
  const setup = loadProcessSetup()
  if (setup.signerUrl) {
    return createRemoteSigner({
      url: setup.signerUrl,
      token: await signerToken(),
      hotWallet: (setup.hotWalletAddress || ZERO) as Address,
      porPublisher: (setup.porPublisherAddress || null) as Address | null,
    })
  }
  const signerStarting = startSignerWithOwnKeys({
    databaseUrl: (await migrated).signer,
    localChain: !config.chainRpcUrl,
    keyFiles: config.keyFiles,
    log: (m) => startLog.info(m),
  })
  starting(signerStarting)
  const signerProcess = await signerStarting
  if (!signerProcess) return null
  return createRemoteSigner({
    url: signerProcess.env.SIGNER_URL,
    token: signerProcess.token,
    hotWallet: signerProcess.hotWallet ?? ZERO,
    porPublisher: signerProcess.porPublisher,
  })
}

type Server = Awaited<ReturnType<typeof buildApp>>

/**
 * The accounts the jobs send with: the hot wallet, and the registry's owner that publishes the
 * proof-of-liabilities snapshots (the deployer locally), its transactions signed by the signer,
 * which signs nothing else with that key. A missing one is said once.
 */
function keyAccounts(server: Server, signer: Signer | null) {
  const hotWallet = signer && signer.address !== ZERO ? signer : null
  server.metrics.watchHotWallet(hotWallet?.address ?? null)
  server.services.withdrawals.knowKeyAddresses([hotWallet?.address, signer?.porPublisher])
  if (!hotWallet)
    server.log.warn(
      'HOT_WALLET_KEY_FILE is not set: approved withdrawals wait until a hot wallet is configured',
    )
  const porPublisher =
    signer?.porPublisher && signer.signPor
      ? remoteAccount(signer.porPublisher, signer.signPor)
      : null
  if (!porPublisher)
    server.log.warn(
      'POR_PUBLISHER_KEY_FILE is not set: proof-of-liabilities snapshots are not published',
    )
  return { hotWallet, porPublisher }
}

/** Says where the chain is, the proof's registry and the demo's root user, once all runs. */
async function logWhatRuns(
  server: Server,
  config: Config,
  chain: ChainConnection,
  anvil: LocalChain | null,
  database: Database,
): Promise<void> {
  server.log.info(
    `chain ${chain.chainId} at ${anvil ? `${chain.rpcUrl} (local Anvil, state in DATA_DIR/chain)` : `CHAIN_RPC_URLS (${chain.rpcUrls.length} endpoint${chain.rpcUrls.length === 1 ? '' : 's'})`}`,
  )
  const official = await createSettingsService(database.pool).get()
  if (official.porRegistryAddress)
    server.log.info(
      `proof of liabilities: registry ${official.porRegistryAddress}, token ${official.chainTokenAddress} (npx por-verify … --registry … --token … --address …)`,
    )
  if (config.seedDemo) {
    server.log.info(
      `demo root user ${DEMO_ROOT.userName}, invitation code ${DEMO_ROOT.referralCode}`,
    )
  }
}

async function main(): Promise<void> {
  const config = loadConfig()
  requirePublicUrl(config)
  // The local Anvil (without CHAIN_RPC_URL) and the embedded database (without DATABASE_URL)
  // start side by side (a lone process has started them before loading this code), and the app
  // is built meanwhile: its connections wait for the database to be up and migrated, its chain
  // client for Anvil to answer.
  const { anvil: anvilLaunch, database: embeddedStart } = takeEarlyStart() ?? startServices(config)
  const migrated = migrateDatabase(config, embeddedStart)
  migrated.catch(() => {})
  const database = openDatabase(
    migrated.then((roles) => roles.app),
    undefined,
    { applicationName: `hope-app ${process.pid}`, timeouts: config.dbTimeouts },
  )

  let app: Server | null = null
  let limits: ReturnType<typeof openLimitStore> | null = null
  let jobs: { stop(): Promise<void> }[] = []
  let signerStarting: Promise<SignerProcess | null> | null = null
  /** Stops the jobs, the HTTP server and whatever this start brought up, in that order. */
  const stopAll = async () => {
    await Promise.all(jobs.map((j) => j.stop()))
    await app?.close().catch((e) => app!.log.error(e))
    await signerStarting?.then((s) => s?.stop()).catch(() => {})
    await limits?.close().catch(() => {})
    await anvilLaunch?.then((a) => a.stop()).catch(() => {})
    await database.close().catch(() => {})
    await embeddedStart?.then((e) => e.stop()).catch(() => {})
  }
  /** Stops what has started, then fails the start with `e`. */
  const failStart = async (e: unknown): Promise<never> => {
    await stopAll()
    throw e
  }

  let opened: Awaited<ReturnType<typeof openChain>>
  try {
    opened = await openChain(config, anvilLaunch)
  } catch (e) {
    return failStart(e)
  }
  const { anvil, chain } = opened

  // Limits count as one across processes unless this is the only one (embedded database).
  limits = openLimitStore({
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    shared: !embeddedStart,
    pool: database.pool,
    // Called on requests only, once the app below exists.
    log: (msg, err) => app?.log.warn({ err }, msg),
  })
  // While the app is built: the database's start and migrations, and the chain's setup.
  const [ready, setup, built] = await Promise.allSettled([
    migrated,
    setUpChain(config, anvilLaunch, chain, database),
    buildApp({ config, database, chain, limits }),
  ])
  if (built.status === 'fulfilled') app = built.value
  for (const step of [ready, setup]) if (step.status === 'rejected') return failStart(step.reason)
  if (built.status === 'rejected') return failStart(built.reason)
  const server = built.value
  // The setup may have pointed the settings at new contracts after the app read them.
  server.services.settings.invalidate()
  started('app built')

  // The app answers from here on; the background jobs (deposits, payouts, proofs) start once
  // the signer process that holds the keys answers too.
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    server.log.info({ signal }, 'shutting down')
    // A drain that does not finish is a failed stop: the status says so.
    const force = setTimeout(() => {
      startLog.error('the shutdown did not finish within 20 s')
      process.exit(1)
    }, 20_000)
    force.unref()
    await stopAll()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  try {
    await server.listen({ port: config.port, host: config.host })
  } catch (e) {
    // Port taken or not allowed: stop the database and chain this start brought up, then fail.
    closing = true
    return failStart(listenError(config, e))
  }
  started('answering requests; the background jobs wait for the signer')

  let signer: Signer | null
  try {
    signer = await connectSigner(config, migrated, (starting) => (signerStarting = starting))
  } catch (e) {
    if (closing) return
    closing = true
    return failStart(e)
  }
  if (closing) return
  const { hotWallet, porPublisher } = keyAccounts(server, signer)
  jobs = server
    .jobs({ pool: database.pool, chain, hotWallet, porPublisher, log: server.log })
    .map((job) => startJob(job, server.log))
  started('background jobs started')
  await logWhatRuns(server, config, chain, anvil, database)
}

main().catch((e: unknown) => {
  // A failure to reach the chain or the database names its URL: without the credentials.
  const redact = redactUrls(credentialUrls())
  const cause = e instanceof Error && e.cause ? { cause: redact(String(e.cause)) } : {}
  startLog.fatal(cause, String(redact(e instanceof Error ? e.message : e)))
  process.exit(1)
})
