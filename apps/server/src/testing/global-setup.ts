import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { startEmbeddedPostgres } from '../db/embedded.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedDatabaseUrl: string
  }
}

/**
 * One fresh embedded PostgreSQL for the whole run, under the OS temp folder (reachable by
 * the `postgres` OS user when we run as root); every test file makes its own database in it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-test-pg-'))
  fs.chmodSync(dir, 0o755)
  const pg = await startEmbeddedPostgres(path.join(dir, 'pg'))
  project.provide('embeddedDatabaseUrl', pg.url)
  return async () => {
    await pg.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
