import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  buildTestApp,
  createTestDatabase,
  databaseTargets,
  type TestDatabase,
} from '../testing/index.ts'

const root = fileURLToPath(new URL('../../../../', import.meta.url))

interface LintReport {
  totals: { errors: number; warnings: number }
  problems: { ruleId: string; severity: string; message: string }[]
}

/** Redocly CLI's lint of one file with the repository's redocly.yaml, as a JSON report. */
function redoclyLint(file: string): LintReport {
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/@redocly/cli/bin/cli.js'),
      'lint',
      file,
      '--config',
      join(root, 'redocly.yaml'),
      '--format=json',
      '--max-problems=10000',
    ],
    {
      encoding: 'utf8',
      timeout: 60_000,
      // A lint run in a test talks to nobody.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  )
  if (!run.stdout) throw new Error(`redocly lint gave no report: ${run.stderr}`)
  return JSON.parse(run.stdout) as LintReport
}

describe('OpenAPI document under Redocly lint', () => {
  let db: TestDatabase
  let app: FastifyInstance
  let dir: string

  beforeAll(async () => {
    db = await createTestDatabase(databaseTargets()[0]!)
    app = await buildTestApp(db)
    dir = mkdtempSync(join(tmpdir(), 'hope-openapi-'))
  })
  afterAll(async () => {
    await app?.close()
    await db?.drop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('the served /api/docs/json has no errors and no warnings', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' })
    expect(res.statusCode).toBe(200)
    const file = join(dir, 'openapi.json')
    writeFileSync(file, res.body)
    const report = redoclyLint(file)
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
  }, 90_000)
})
