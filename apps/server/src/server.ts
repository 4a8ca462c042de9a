import path from 'node:path'
import { buildApp } from './app.ts'
import { loadConfig } from './config.ts'
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts'
import { migrate } from './db/migrate.ts'
import { openDatabase } from './db/pool.ts'
import { DEMO_ROOT, seedDemo } from './db/seed.ts'

async function main(): Promise<void> {
  const config = loadConfig()
  let embedded: EmbeddedDatabase | null = null
  let databaseUrl = config.databaseUrl
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(path.join(config.dataDir, 'pg'), (m) => console.info(m))
    databaseUrl = embedded.url
  }
  const database = openDatabase(databaseUrl)
  try {
    await migrate(database.pool)
    if (config.seedDemo) await seedDemo(database.pool)
  } catch (e) {
    await database.close()
    await embedded?.stop()
    throw e
  }

  const app = await buildApp({ config, database })
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    const force = setTimeout(() => process.exit(1), 20_000)
    force.unref()
    await app.close().catch((e) => app.log.error(e))
    await database.close().catch(() => {})
    await embedded?.stop().catch(() => {})
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  await app.listen({ port: config.port, host: config.host })
  if (config.seedDemo) {
    app.log.info(`demo root user ${DEMO_ROOT.userName}, invitation code ${DEMO_ROOT.referralCode}`)
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e)
  if (e instanceof Error && e.cause) console.error(e.cause)
  process.exit(1)
})
