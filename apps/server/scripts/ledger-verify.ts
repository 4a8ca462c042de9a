// `npm run ledger:verify`: checks the ledger invariants on the app's database (DATABASE_URL, or
// the embedded one under DATA_DIR, running or not). Exits 1 naming each account that breaks one.
import { loadConfig } from '../src/config.ts'
import { openAppDatabase } from '../src/db/app-database.ts'
import { verifyLedger } from '../src/modules/ledger/ledger.verify.ts'

const db = await openAppDatabase(loadConfig()).catch((e: Error) => {
  console.error(e.message)
  process.exit(2)
})
try {
  const migrated = await db.pool.query(`SELECT to_regclass('ledger_accounts') IS NOT NULL AS ok`)
  if (!migrated.rows[0]?.ok) {
    console.error('The database has no ledger yet: start the app once (npm start) to migrate it.')
    process.exitCode = 2
  } else {
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
  }
} finally {
  await db.close()
}
// The embedded database's exit hook ends the process with 0 when the loop empties: exit with
// the command's own status first.
process.exit(process.exitCode ?? 0)
