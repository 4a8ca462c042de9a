// `npm run admin:create -- <username> <role> [--json]` (also `operator:create`): makes an
// operator with a generated password (OPERATOR_PASSWORD sets one instead) and a new
// authenticator secret, and prints the password once, the otpauth:// enrolment link and its QR
// code. With --json it prints one line {username, role, password, otpauthUri} for scripts.
// Roles: admin, finance, content, support. The secret is stored sealed with OPERATOR_SECRET_KEY
// (or the key file under DATA_DIR): the server must run with the same key.
import { OPERATOR_ROLES, type OperatorRole } from '@hope/api'
import QRCode from 'qrcode'
import { loadConfig } from '../src/config.ts'
import { openAppDatabase } from '../src/db/app-database.ts'
import { migrate } from '../src/db/migrate.ts'
import { createLedgerService } from '../src/modules/ledger/ledger.service.ts'
import { createOperatorService } from '../src/modules/operator/operator.service.ts'
import { generatePassword } from '../src/modules/operator/operator.rules.ts'
import { createSettingsService } from '../src/modules/settings/settings.service.ts'
import { base32Encode } from '../src/lib/totp.ts'
import { secretKeyLoader } from '../src/modules/operator/operator.secret.ts'

const args = process.argv.slice(2)
const json = args.includes('--json')
const [username, role] = args.filter((a) => a !== '--json')
if (!username || !/^\S{1,64}$/.test(username) || !OPERATOR_ROLES.includes(role as OperatorRole)) {
  console.error(`usage: npm run admin:create -- <username> <${OPERATOR_ROLES.join('|')}> [--json]`)
  process.exit(2)
}
const config = loadConfig()
const db = await openAppDatabase(config, { initialise: true }).catch((e: Error) => {
  console.error(e.message)
  process.exit(2)
})
try {
  await migrate(db.pool)
  const password = process.env.OPERATOR_PASSWORD || generatePassword()
  const operators = createOperatorService({
    pool: db.pool,
    ledger: createLedgerService(db.pool),
    settings: createSettingsService(db.pool),
    secretKey: secretKeyLoader(config),
  })
  const created = await operators.create(username, password, role as OperatorRole)
  if (json) {
    console.info(JSON.stringify({ username, role, password, otpauthUri: created.otpauthUri }))
  } else {
    const qr = await QRCode.toString(created.otpauthUri, { type: 'terminal', small: true })
    console.info(
      [
        `operator ${username} (${role}) created`,
        process.env.OPERATOR_PASSWORD ? '' : `password (shown once): ${password}`,
        'Scan this code with an authenticator app; sign-in asks for its 6-digit code.',
        qr,
        created.otpauthUri,
        `secret (to type in by hand): ${base32Encode(created.totpSecret)}`,
      ]
        .filter(Boolean)
        .join('\n'),
    )
  }
} catch (e) {
  console.error((e as Error).message)
  process.exitCode = 1
} finally {
  await db.close()
}
// The embedded database's exit hook ends the process with 0 when the loop empties: exit with
// the command's own status first.
process.exit(process.exitCode ?? 0)
