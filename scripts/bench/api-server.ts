// The server side of the API benchmark, run as its own process so load generation does not
// share its event loop: `app` serves the real app (buildApp) on DATABASE_URL, `bare` a minimal
// Fastify app with one route, the ceiling the API is measured against. Both listen on
// 127.0.0.1 on a free port and tell it to the parent over IPC.
import Fastify, { type FastifyInstance } from 'fastify'
import { buildApp } from '../../apps/server/src/app.ts'
import { loadConfig } from '../../apps/server/src/config.ts'
import { openDatabase, type Database } from '../../apps/server/src/db/pool.ts'

const mode = process.argv[2]
let app: FastifyInstance
let database: Database | null = null

if (mode === 'bare') {
  app = Fastify({ logger: false })
  app.post('/api/bare', async () => ({ code: 200, msg: 'success', data: null }))
} else if (mode === 'app') {
  const config = loadConfig({ ...process.env, HOST: '127.0.0.1' })
  if (!config.databaseUrl) throw new Error('DATABASE_URL is required')
  database = openDatabase(config.databaseUrl)
  app = await buildApp({
    config: { ...config, webDist: undefined, adminDist: undefined },
    database,
    // Request logs at the configured level; the bench runs at warn unless told otherwise.
    logger: { level: config.logLevel },
  })
} else {
  throw new Error(`usage: api-server.ts app|bare (got ${mode})`)
}

const stop = async () => {
  await app.close().catch(() => {})
  await database?.close().catch(() => {})
  process.exit(0)
}
process.on('SIGTERM', () => void stop())
process.on('disconnect', () => void stop())

await app.listen({ host: '127.0.0.1', port: 0 })
const address = app.server.address()
process.send?.({ port: typeof address === 'object' && address ? address.port : 0 })
