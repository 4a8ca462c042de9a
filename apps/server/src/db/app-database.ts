import fs from 'node:fs'
import path from 'node:path'
import type { Config } from '../config.ts'
import { runningEmbeddedUrl, startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.ts'
import { openDatabase, type Database } from './pool.ts'

/**
 * The app's database for a command run beside it: `DATABASE_URL`, else the embedded server
 * under DATA_DIR — the running one, or started for the command and stopped on close
 * (`initialise` makes a new one where there is none yet).
 */
export async function openAppDatabase(
  config: Config,
  opts: { initialise?: boolean } = {},
): Promise<Database> {
  let started: EmbeddedDatabase | null = null
  let url = config.databaseUrl
  if (!url) {
    const dir = path.join(config.dataDir, 'pg')
    if (!opts.initialise && !fs.existsSync(path.join(dir, 'PG_VERSION'))) {
      throw new Error(
        `No database under ${dir}: start the app once (npm start) or set DATABASE_URL.`,
      )
    }
    url = runningEmbeddedUrl(dir) ?? undefined
    if (!url) {
      started = await startEmbeddedPostgres(dir)
      url = started.url
    }
  }
  const db = openDatabase(url, 2)
  return {
    ...db,
    async close() {
      await db.close()
      await started?.stop()
    },
  }
}
