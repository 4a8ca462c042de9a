// The primary of a multi-process server (WEB_CONCURRENCY > 1): it starts what must exist once
// (the embedded PostgreSQL, the local chain), migrates and seeds, then forks the workers that
// serve on the shared port. Workers see the database (as the role hope_app) and the chain as
// external services through their environment, replaced when one dies; SIGTERM drains them
// all, then the primary stops the database and the chain. The primary keeps the owner's
// connection (migrations, backups), and the signer it starts holds the keys.
import cluster, { type Worker } from 'node:cluster'
import path from 'node:path'
import {
  lastLocalChainPort,
  startAnvil,
  writeLocalChainNote,
  type LocalChain,
} from './chain/anvil.ts'
import { connectChain } from './chain/chain.service.ts'
import { configureLocalChain } from './chain/local-chain.ts'
import { credentialUrls, loadConfig, loadProcessSetup, requirePublicUrl } from './config.ts'
import { prepareRoleUrls, startAppPostgres, type RoleUrls } from './db/app-database.ts'
import type { EmbeddedDatabase } from './db/embedded.ts'
import { migrate } from './db/migrate.ts'
import { openDatabase } from './db/pool.ts'
import { seedDemo } from './db/seed.ts'
import { processLog } from './lib/process-log.ts'
import { redactUrls } from './lib/redact-urls.ts'
import { createSettingsService } from './modules/settings/settings.service.ts'
import { serveMergedMetrics } from './plugins/metrics.cluster.ts'
import { uploadsDirOf } from './modules/upload/upload.service.ts'
import {
  handOutSignerToken,
  startSignerWithOwnKeys,
  type SignerProcess,
} from './signer/signer.process.ts'

const logger = processLog('primary')
const log = (msg: string) => logger.info(msg)

async function startPrimary(workers: number): Promise<void> {
  const config = loadConfig()
  requirePublicUrl(config)
  let embedded: EmbeddedDatabase | null = null
  let anvil: LocalChain | null = null
  let signer: SignerProcess | null = null
  const stopServices = async () => {
    await signer?.stop().catch(() => {})
    await anvil?.stop().catch(() => {})
    await embedded?.stop().catch(() => {})
  }
  const env: Record<string, string> = {}
  try {
    const anvilStarting = config.chainRpcUrl
      ? null
      : startAnvil({
          stateFile: path.join(config.dataDir, 'chain', 'state.json'),
          blockTimeSec: config.chainBlockTimeSec,
          preferredPort: lastLocalChainPort(config.dataDir),
        })
    anvilStarting?.catch(() => {})
    let databaseUrl = config.databaseUrl
    if (!databaseUrl) {
      embedded = await startAppPostgres(config, (m) => log(m), { scheduleBackups: true })
      databaseUrl = embedded.url
    }
    const database = openDatabase(databaseUrl, 4)
    let roles: RoleUrls
    try {
      await migrate(database.pool)
      if (config.seedDemo)
        await seedDemo(database.pool, { uploadsDir: uploadsDirOf(config.dataDir) })
      if (anvilStarting) {
        anvil = await anvilStarting
        const chain = connectChain(anvil.url, anvil.chainId)
        writeLocalChainNote(config.dataDir, anvil.url)
        const settings = createSettingsService(database.pool)
        await configureLocalChain(settings, anvil.url)
        env.CHAIN_RPC_URL = chain.rpcUrl
        env.CHAIN_ID = String(chain.chainId)
      }
      roles = await prepareRoleUrls(database.pool, config, databaseUrl)
    } finally {
      await database.close()
    }
    // The keys go down the signer's own pipe only, and the workers (forked with this process's
    // environment, less the key files) ask the signer over its local channel, with the token
    // they ask this process for over IPC.
    signer = await startSignerWithOwnKeys({
      databaseUrl: roles.signer,
      localChain: anvil !== null,
      keyFiles: config.keyFiles,
      log,
    })
    if (signer) {
      Object.assign(env, signer.env)
      handOutSignerToken(signer.token)
    }
    // The workers connect as hope_app and know no other role's URL, nor where the keys are
    // (cluster.fork passes them this process's environment).
    env.DATABASE_URL = roles.app
    env.APP_DATABASE_URL = roles.app
    for (const name of ['SIGNER_DATABASE_URL', 'HOT_WALLET_KEY_FILE', 'POR_PUBLISHER_KEY_FILE'])
      delete process.env[name]
    // Migrated and seeded here; the workers serve what is there.
    env.SEED_DEMO = 'false'
    env.HOPE_CLUSTER_PREPARED = 'true'
  } catch (e) {
    await stopServices()
    throw e
  }

  let closing = false
  let listened = false
  const started = new Map<Worker, number>()
  const fork = () => {
    const worker = cluster.fork(env)
    started.set(worker, Date.now())
  }
  cluster.on('listening', (worker) => {
    listened = true
    log(`worker ${worker.process.pid} serving`)
  })
  cluster.on('exit', (worker, code, signal) => {
    const since = started.get(worker) ?? 0
    started.delete(worker)
    if (closing) return
    if (!listened) {
      // No worker has served yet: the start failed (the worker said why). Stop, and say so.
      log(`worker ${worker.process.pid} failed to start (${signal ?? code}); stopping`)
      void shutdown('start failed', 1)
      return
    }
    log(`worker ${worker.process.pid} ended (${signal ?? code}); starting another`)
    // A worker that dies at once (bad configuration) is not restarted in a tight loop.
    setTimeout(fork, Date.now() - since < 5_000 ? 2_000 : 0)
  })
  serveMergedMetrics()
  for (let i = 0; i < workers; i++) fork()
  log(`${workers} workers on port ${config.port}`)
  watchWorkers(started, () => closing)

  async function shutdown(signal: NodeJS.Signals | 'start failed', exitCode = 0): Promise<void> {
    if (closing) return
    closing = true
    log(`${signal}: draining the workers`)
    const force = setTimeout(() => {
      for (const w of started.keys()) w.process.kill('SIGKILL')
    }, 25_000)
    force.unref()
    const exits = [...started.keys()].map(
      (w) =>
        new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once('exit', () => resolve()))),
    )
    for (const w of started.keys()) w.process.kill('SIGTERM')
    await Promise.all(exits)
    await stopServices()
    process.exit(exitCode)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
}

/** A worker whose event loop has not answered a ping for this long is replaced. */
const WORKER_STALL_MS = loadProcessSetup().workerStallMs
const PING = { hope: 'ping' } as const
const PONG = { hope: 'pong' } as const

/**
 * Pings every listening worker through the IPC channel; one whose event loop has not answered
 * for WORKER_STALL_MS (stuck in a loop, or stopped) is killed, and the exit handler starts
 * another in its place.
 */
function watchWorkers(started: Map<Worker, number>, closing: () => boolean): void {
  const lastPong = new Map<Worker, number>()
  cluster.on('message', (worker, msg: unknown) => {
    if ((msg as { hope?: string })?.hope === PONG.hope) lastPong.set(worker, Date.now())
  })
  // A worker answers pings from its first moment (answerPings runs before the app loads), so
  // one that stops while it is still starting is replaced too.
  cluster.on('fork', (worker) => lastPong.set(worker, Date.now()))
  cluster.on('exit', (worker) => lastPong.delete(worker))
  const timer = setInterval(
    () => {
      if (closing()) return
      const now = Date.now()
      for (const worker of started.keys()) {
        const last = lastPong.get(worker)
        if (last === undefined || worker.isDead()) continue // gone
        if (now - last > WORKER_STALL_MS) {
          log(`worker ${worker.process.pid} has not answered for ${now - last} ms; replacing it`)
          lastPong.delete(worker)
          worker.process.kill('SIGKILL')
          continue
        }
        if (worker.isConnected()) worker.send(PING)
      }
    },
    Math.min(5_000, Math.max(250, WORKER_STALL_MS / 4)),
  )
  timer.unref()
}

/** In a worker: answers the primary's pings from the event loop (see watchWorkers). */
export function answerPings(): void {
  process.on('message', (msg: unknown) => {
    if ((msg as { hope?: string })?.hope === PING.hope) process.send?.(PONG)
  })
}

const workers = loadProcessSetup().workers
if (workers > 1 && cluster.isPrimary) {
  startPrimary(workers).catch((e: unknown) => {
    const redact = redactUrls(credentialUrls())
    logger.fatal(String(redact(e instanceof Error ? e.message : e)))
    process.exit(1)
  })
} else {
  if (cluster.isWorker) answerPings()
  await import('./main.ts')
}
