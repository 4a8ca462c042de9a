// A single process on the embedded database and the local chain (what `npm start` runs) starts
// both before the rest of the server loads: PostgreSQL and Anvil then boot in their own
// processes while this one evaluates its code, and main.ts takes them over.
import cluster from 'node:cluster'
import path from 'node:path'
import { lastLocalChainPort, launchAnvil, type LaunchedAnvil } from './chain/anvil.ts'
import { loadConfig, loadProcessSetup, requirePublicUrl, type Config } from './config.ts'
import { startAppPostgres } from './db/app-database.ts'
import type { EmbeddedDatabase } from './db/embedded.ts'
import { processLog } from './lib/process-log.ts'

export interface EarlyStart {
  /**
   * The local chain (without CHAIN_RPC_URL): its URL at once, `ready` when it answers, `fresh`
   * when it starts without a state (nothing deployed on it yet).
   */
  anvil: Promise<LaunchedAnvil> | null
  /** The embedded database (without DATABASE_URL), once it accepts connections. */
  database: Promise<EmbeddedDatabase> | null
}

/** The start's own lines (the database's start, backups it schedules). */
export const startLog = processLog('server')

/** Starts the local chain and the embedded database as `config` asks. */
export function startServices(config: Config): EarlyStart {
  const anvil = config.chainRpcUrl
    ? null
    : launchAnvil({
        stateFile: path.join(config.dataDir, 'chain', 'state.json'),
        blockTimeSec: config.chainBlockTimeSec,
        preferredPort: lastLocalChainPort(config.dataDir),
      })
  const database = config.databaseUrl
    ? null
    : startAppPostgres(config, (m) => startLog.info(m), { scheduleBackups: true })
  // Their failures are reported where they are awaited.
  anvil?.catch(() => {})
  database?.catch(() => {})
  return { anvil, database }
}

let early: EarlyStart | null = null

/** In a lone process (not a cluster's primary or worker), starts the services now. */
export function startServicesEarly(): void {
  try {
    if (cluster.isWorker || loadProcessSetup().workers > 1) return
    const config = loadConfig()
    requirePublicUrl(config)
    early = startServices(config)
  } catch {
    // A configuration error is reported by the start proper.
  }
}

/** The services started early, once: main.ts takes them over (null when none were). */
export function takeEarlyStart(): EarlyStart | null {
  const taken = early
  early = null
  return taken
}
