// docs/table-owners.md says who writes and who reads each table; the SQL in the modules says
// it too, and the two must agree: a module that starts writing another's table shows up here.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { REPO_ROOT } from '../paths.ts'
import { accessOf, renderTableAccess, tableAccess } from './table-access.ts'

const DOC = path.join(REPO_ROOT, 'docs/table-owners.md')

/** The markdown table in the document, exactly as written. */
function documented(): string {
  const lines = fs.readFileSync(DOC, 'utf8').split('\n')
  return lines.filter((line) => line.startsWith('|')).join('\n')
}

describe('who writes and who reads each table', () => {
  test('docs/table-owners.md lists what the SQL of the modules does', () => {
    const derived = renderTableAccess(tableAccess())
    expect(documented(), `Paste this into docs/table-owners.md:\n${derived}\n`).toBe(derived)
  })

  test('each table has one writing module', () => {
    const shared = tableAccess().filter((t) => t.writers.length > 1)
    expect(shared.map((t) => `${t.table}: ${t.writers.join(', ')}`)).toEqual([])
  })

  test('reads writes and reads off the SQL, not off a lock or an upsert', () => {
    const known = new Set(['users', 'stake_positions', 'ledger_accounts'])
    const { writes, reads } = accessOf(
      `UPDATE stake_positions p SET released = 1 FROM users u
        JOIN ledger_accounts a ON a.user_id = u.id FOR UPDATE OF p
        ON CONFLICT (id) DO UPDATE SET released = 2`,
      known,
    )
    expect([...writes]).toEqual(['stake_positions'])
    expect([...reads].sort()).toEqual(['ledger_accounts', 'users'])
  })
})
