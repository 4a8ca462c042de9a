// `npm run restore -- --to <ISO time|latest> --data-dir <DATA_DIR> [--replace]`: rebuilds a
// whole DATA_DIR (the variable's meaning) from BACKUP_DIR: its database (DATA_DIR/pg) from the
// newest base backup that finished by the moment asked, replaying the archived WAL up to that
// moment (or to its end); then that backup's operator and seal keys (opened with BACKUP_KEY),
// every backup's uploads and the newest local chain state. The database is built in a sibling
// folder and swapped in only when it succeeded: `--replace` then moves an existing database,
// keys and chain state aside; a refused or failed restore leaves the folder as it was.
import path from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/config.ts'
import { restoreDeployment } from '../src/db/backup.ts'

const usage =
  'usage: npm run restore -- --to <ISO time with its zone|latest> --data-dir <DATA_DIR> [--replace]'
let args
try {
  args = parseArgs({
    options: {
      to: { type: 'string' },
      'data-dir': { type: 'string' },
      replace: { type: 'boolean', default: false },
    },
  }).values
} catch (e) {
  console.error(`${(e as Error).message}\n${usage}`)
  process.exit(2)
}
const to = args.to
const dir = args['data-dir'] ? path.resolve(args['data-dir']) : undefined
if (!to || !dir) {
  console.error(usage)
  process.exit(2)
}
let target: Date | 'latest'
if (to === 'latest') target = 'latest'
else {
  // A moment without its zone would mean one thing here and another on the server.
  const ms = /(Z|[+-]\d\d:?\d\d)$/i.test(to) ? Date.parse(to) : NaN
  if (Number.isNaN(ms)) {
    console.error(
      `--to must be "latest" or a time with its zone, e.g. 2026-11-28T09:30:00Z; got "${to}"`,
    )
    process.exit(2)
  }
  target = new Date(ms)
}

const config = loadConfig()
try {
  const t0 = performance.now()
  const result = await restoreDeployment({
    backupDir: config.backup.dir,
    dataDir: dir,
    target,
    backupKey: config.backup.key,
    replace: args.replace,
    log: (m) => console.info(m),
  })
  const seconds = ((performance.now() - t0) / 1000).toFixed(1)
  if (result.movedAside) console.info(`moved the existing ${dir} to ${result.movedAside}`)
  console.info(
    `restored ${dir} in ${seconds} s from base backup ${result.backup.id} to ` +
      `${target === 'latest' ? 'the end of the archive' : target.toISOString()}: ` +
      `${result.transfers} ledger transfers, the last at ${result.lastTransferAt ?? '-'}`,
  )
  for (const line of result.files) console.info(`restored ${line}`)
  for (const line of result.missing) console.warn(`not in the backup: ${line}`)
  console.info(`next: DATA_DIR=${dir} npm start; then npm run ledger:verify and npm run backup`)
} catch (e) {
  console.error((e as Error).message)
  process.exitCode = 1
}
process.exit(process.exitCode ?? 0)
