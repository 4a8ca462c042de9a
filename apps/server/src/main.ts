// The server: the database (embedded or DATABASE_URL), the chain (a local Anvil or
// CHAIN_RPC_URL), the HTTP app and the background jobs. Loaded by server.ts.
import path from 'node:path'
import { buildApp } from './app.ts'
import { startAnvil, type LocalChain } from './chain/anvil.ts'
import {
  checkTokenDecimals,
  connectChain,
  connectExternalChain,
  type ChainConnection,
} from './chain/chain.service.ts'
import {
  LOCAL_ROLES,
  devAccount,
  prepareLocalChain,
  TOKEN_DECIMALS,
  writeLocalChainNote,
} from './chain/local-chain.ts'
import { reconcileChain } from './modules/reconcile/reconcile.service.ts'
import { createWithdrawalSender } from './modules/withdraw/withdraw.sender.ts'
import { privateKeyToAccount } from 'viem/accounts'
import { startIntervalJob } from './jobs/interval-job.ts'
import { createDepositWatcher } from './modules/deposit/deposit.watcher.ts'
import { createSettingsService } from './modules/settings/settings.service.ts'
import { loadConfig } from './config.ts'
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts'
import { migrate } from './db/migrate.ts'
import { openDatabase } from './db/pool.ts'
import { DEMO_ROOT, seedDemo } from './db/seed.ts'
import { redactUrls } from './lib/redact-urls.ts'
import { uploadsDirOf } from './modules/upload/upload.service.ts'

async function main(): Promise<void> {
  const config = loadConfig()
  // The local Anvil (without CHAIN_RPC_URL) starts while the database starts and migrates.
  const anvilStarting = config.chainRpcUrl
    ? null
    : startAnvil({
        stateFile: path.join(config.dataDir, 'chain', 'state.json'),
        blockTimeSec: config.chainBlockTimeSec,
      })
  // Its failure is reported where it is awaited; a start that is no longer wanted is stopped.
  anvilStarting?.catch(() => {})
  const dropAnvil = () => anvilStarting?.then((a) => a.stop()).catch(() => {})
  let embedded: EmbeddedDatabase | null = null
  let databaseUrl = config.databaseUrl
  if (!databaseUrl) {
    try {
      embedded = await startEmbeddedPostgres(path.join(config.dataDir, 'pg'), (m) =>
        console.info(m),
      )
    } catch (e) {
      await dropAnvil()
      throw e
    }
    databaseUrl = embedded.url
  }
  const database = openDatabase(databaseUrl)
  try {
    await migrate(database.pool)
    if (config.seedDemo) await seedDemo(database.pool, { uploadsDir: uploadsDirOf(config.dataDir) })
  } catch (e) {
    await dropAnvil()
    await database.close()
    await embedded?.stop()
    throw e
  }

  // The chain: a configured endpoint, or a local Anvil keeping its state under DATA_DIR.
  let anvil: LocalChain | null = null
  let chain: ChainConnection
  try {
    if (config.chainRpcUrl) {
      chain = await connectExternalChain(config.chainRpcUrl, config.chainId)
    } else {
      anvil = await anvilStarting!
      chain = connectChain(anvil.url, anvil.chainId)
      writeLocalChainNote(config.dataDir, anvil.url)
      const settings = createSettingsService(database.pool)
      const local = await prepareLocalChain(
        anvil.url,
        (await settings.get()).chainTokenAddress || undefined,
      )
      const current = await settings.get()
      const wanted = {
        chainTokenAddress: local.tokenAddress,
        chainTokenDecimals: TOKEN_DECIMALS,
        chainDepositAddress: local.depositAddress,
      } as const
      for (const [key, value] of Object.entries(wanted) as [
        keyof typeof wanted,
        string | number,
      ][]) {
        if (String(current[key]).toLowerCase() !== String(value).toLowerCase())
          await settings.set(key, value, 'local-chain')
      }
    }
  } catch (e) {
    await anvil?.stop()
    await database.close()
    await embedded?.stop()
    throw e
  }

  try {
    await checkTokenDecimals(chain, createSettingsService(database.pool))
  } catch (e) {
    await anvil?.stop()
    await database.close()
    await embedded?.stop()
    throw e
  }

  const app = await buildApp({ config, database, chain })
  const watcher = createDepositWatcher({
    pool: database.pool,
    ledger: app.services.ledger,
    settings: app.services.settings,
    client: chain.client,
    chainId: chain.chainId,
    log: (msg, extra) => app.log.warn({ extra }, msg),
    logError: (msg, extra) => app.log.error({ extra }, msg),
  })
  const jobs = [startIntervalJob('deposit watcher', () => watcher.tick(), app.log)]
  const hotWalletKey = process.env.HOT_WALLET_KEY
  const hotWallet = hotWalletKey
    ? privateKeyToAccount(hotWalletKey as `0x${string}`)
    : anvil
      ? devAccount(LOCAL_ROLES.hotWallet)
      : null
  if (hotWallet) {
    const sender = createWithdrawalSender({
      pool: database.pool,
      ledger: app.services.ledger,
      settings: app.services.settings,
      client: chain.client,
      chainId: chain.chainId,
      hotWallet,
      log: app.log,
    })
    jobs.push(startIntervalJob('withdrawal sender', () => sender.tick(), app.log))
  } else {
    app.log.warn(
      'HOT_WALLET_KEY is not set: approved withdrawals wait until a hot wallet is configured',
    )
  }

  jobs.push(
    startIntervalJob(
      'chain reconciliation',
      async () => {
        const report = await reconcileChain({
          pool: database.pool,
          settings: app.services.settings,
          client: chain.client,
          chainId: chain.chainId,
          hotWallet: hotWallet?.address ?? null,
        })
        if (report.problems.length)
          app.log.error({ problems: report.problems }, 'chain and books differ')
        return {}
      },
      app.log,
      60_000,
    ),
  )

  // The daily settlement at the configured local time; the run itself takes an advisory lock.
  jobs.push(
    startIntervalJob(
      'daily settlement',
      () => app.services.settlementJob.settleDue(),
      app.log,
      60_000,
    ),
  )
  // Prices: the ETH feed's poll (when configured), each price change and an hourly sample.
  jobs.push(startIntervalJob('price sampler', () => app.services.quotes.tick(), app.log, 60_000))
  // The day's ranking snapshot, taken once per day (a request finding none takes it too).
  jobs.push(
    startIntervalJob(
      'ranking snapshot',
      () => app.services.ranking.ensureSnapshot(),
      app.log,
      300_000,
    ),
  )
  // The ledger check (the `ledger:verify` invariants) at start and every 10 minutes; the console
  // shows the newest result.
  jobs.push(
    startIntervalJob(
      'ledger check',
      async () => {
        const report = await app.services.admin.checkLedgerTick()
        if ('problems' in report && report.problems > 0)
          app.log.error({ problems: report.problems }, 'the ledger check found problems')
        return report
      },
      app.log,
      600_000,
      { runAtStart: true },
    ),
  )

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    const force = setTimeout(() => process.exit(1), 20_000)
    force.unref()
    await Promise.all(jobs.map((j) => j.stop()))
    await app.close().catch((e) => app.log.error(e))
    await anvil?.stop().catch(() => {})
    await database.close().catch(() => {})
    await embedded?.stop().catch(() => {})
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  await app.listen({ port: config.port, host: config.host })
  app.log.info(
    `chain ${chain.chainId} at ${anvil ? `${chain.rpcUrl} (local Anvil, state in DATA_DIR/chain)` : 'CHAIN_RPC_URL'}`,
  )
  if (config.seedDemo) {
    app.log.info(`demo root user ${DEMO_ROOT.userName}, invitation code ${DEMO_ROOT.referralCode}`)
  }
}

main().catch((e: unknown) => {
  // A failure to reach the chain or the database names its URL: without the credentials.
  const redact = redactUrls([process.env.CHAIN_RPC_URL, process.env.DATABASE_URL])
  console.error(redact(e instanceof Error ? e.message : e))
  if (e instanceof Error && e.cause) console.error(redact(String(e.cause)))
  process.exit(1)
})
