// `npm run ledger:verify`: checks the ledger invariants on the app's database (DATABASE_URL, or
// the embedded one under DATA_DIR, running or not). Exits 1 naming each account that breaks one.
import fs from 'node:fs'
import path from 'node:path'
import { loadConfig } from '../src/config.ts'
import {
  runningEmbeddedUrl,
  startEmbeddedPostgres,
  type EmbeddedDatabase,
} from '../src/db/embedded.ts'
import { openDatabase } from '../src/db/pool.ts'
import { verifyLedger } from '../src/modules/ledger/ledger.verify.ts'

const config = loadConfig()
let url = config.databaseUrl
let started: EmbeddedDatabase | null = null
if (!url) {
  const dir = path.join(config.dataDir, 'pg')
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    console.error(`No database under ${dir}: start the app once (npm start) or set DATABASE_URL.`)
    process.exit(2)
  }
  url = runningEmbeddedUrl(dir) ?? undefined
  if (!url) {
    started = await startEmbeddedPostgres(dir)
    url = started.url
  }
}
const db = openDatabase(url, 2)
try {
  const migrated = await db.pool.query(`SELECT to_regclass('ledger_accounts') IS NOT NULL AS ok`)
  if (!migrated.rows[0]?.ok) {
    console.error('The database has no ledger yet: start the app once (npm start) to migrate it.')
    process.exit(2)
  }
  const report = await verifyLedger(db.pool)
  if (report.problems.length) {
    console.error(`ledger: ${report.problems.length} problem(s)`)
    for (const p of report.problems) console.error(`- ${p}`)
    process.exitCode = 1
  } else {
    console.info(
      `ledger OK: ${report.accounts} accounts, ${report.transfers} transfers, invariants 1-4 hold`,
    )
  }
} finally {
  await db.close()
  await started?.stop()
}
