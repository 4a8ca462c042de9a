// `npm run operator:create -- <username> <role>`: makes an operator and prints a generated
// password once (OPERATOR_PASSWORD sets one instead). Roles: admin, finance, content, support.
import { OPERATOR_ROLES, type OperatorRole } from '@hope/api'
import { loadConfig } from '../src/config.ts'
import { openAppDatabase } from '../src/db/app-database.ts'
import { migrate } from '../src/db/migrate.ts'
import { createLedgerService } from '../src/modules/ledger/ledger.service.ts'
import { createOperatorService } from '../src/modules/operator/operator.service.ts'
import { generatePassword } from '../src/modules/operator/operator.rules.ts'

const [username, role] = process.argv.slice(2)
if (!username || !OPERATOR_ROLES.includes(role as OperatorRole)) {
  console.error(`usage: npm run operator:create -- <username> <${OPERATOR_ROLES.join('|')}>`)
  process.exit(2)
}
const db = await openAppDatabase(loadConfig(), { initialise: true }).catch((e: Error) => {
  console.error(e.message)
  process.exit(2)
})
try {
  await migrate(db.pool)
  const password = process.env.OPERATOR_PASSWORD || generatePassword()
  const operators = createOperatorService({
    pool: db.pool,
    db: db.db,
    ledger: createLedgerService(db.pool),
  })
  await operators.create(username, password, role as OperatorRole)
  console.info(
    `operator ${username} (${role}) created${process.env.OPERATOR_PASSWORD ? '' : `; password: ${password}`}`,
  )
} finally {
  await db.close()
}
