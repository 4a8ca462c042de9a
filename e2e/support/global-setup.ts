import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { freePort } from '../../apps/server/src/lib/process.ts'

/** An operator made by `npm run admin:create -- --json`, with their authenticator secret. */
export interface E2eOperator {
  username: string
  password: string
  /** base32, as the enrolment link carries it */
  totpSecret: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    /** An operator of role finance, for crediting users through the operator API. */
    operator: E2eOperator
    /** An operator of role admin, for the operator console. */
    adminOperator: E2eOperator
    /** An operator of role support, for answering the support chat. */
    supportOperator: E2eOperator
    /** The app's local chain (Anvil), for the wallet's reads and transactions. */
    chainRpcUrl: string
    /** The app's DATA_DIR, for the commands that check its data. */
    dataDir: string
  }
}

const repoRoot = path.resolve(import.meta.dirname, '../..')

async function waitForServer(
  url: string,
  child: ChildProcess,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited early:\n${output()}`)
    try {
      const res = await fetch(`${url}/api/docs/json`)
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`the app did not answer at ${url}:\n${output()}`)
}

/** An operator made with the create command as an operator would, reading its --json line. */
function createOperator(dataDir: string, username: string, role: string): E2eOperator {
  const created = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'apps/server/scripts/create-operator.ts'), username, role, '--json'],
    { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
  )
  if (created.status !== 0)
    throw new Error(`could not create the e2e operator ${username}:\n${created.stderr}`)
  const line = created.stdout.trim().split('\n').at(-1) ?? ''
  const made = JSON.parse(line) as { username: string; password: string; otpauthUri: string }
  const totpSecret = new URL(made.otpauthUri).searchParams.get('secret')
  if (!totpSecret) throw new Error(`no secret in the enrolment link of ${username}`)
  return { username: made.username, password: made.password, totpSecret }
}

/** The real app, built web included, with a fresh embedded database, on a free port. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The app as `npm start` runs it: the web build and the server bundle.
  const server = path.join(repoRoot, 'apps/server/dist/server.js')
  if (!fs.existsSync(path.join(repoRoot, 'apps/web/dist/index.html')) || !fs.existsSync(server)) {
    throw new Error('the build is missing: run `npm run build` first (npm test does).')
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-e2e-'))
  fs.chmodSync(dataDir, 0o755)
  const port = await freePort()
  const operator = createOperator(dataDir, 'e2e-finance', 'finance')
  const adminOperator = createOperator(dataDir, 'e2e-admin', 'admin')
  const supportOperator = createOperator(dataDir, 'e2e-support', 'support')
  let log = ''
  const child = spawn(process.execPath, [server], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (d) => (log += d))
  child.stderr?.on('data', (d) => (log += d))
  const baseUrl = `http://127.0.0.1:${port}`
  await waitForServer(baseUrl, child, () => log)
  project.provide('baseUrl', baseUrl)
  project.provide('operator', operator)
  project.provide('adminOperator', adminOperator)
  project.provide('supportOperator', supportOperator)
  const note = JSON.parse(fs.readFileSync(path.join(dataDir, 'chain', 'anvil.json'), 'utf8')) as {
    url: string
  }
  project.provide('chainRpcUrl', note.url)
  project.provide('dataDir', dataDir)
  return async () => {
    // The app drains and exits on SIGTERM; one that does not within 15 s is killed. The timer
    // is cleared either way, so nothing of the set-up outlives the run.
    const exited = new Promise<void>((r) =>
      child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r()),
    )
    child.kill('SIGTERM')
    let timer: NodeJS.Timeout | undefined
    const drained = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 15_000))),
    ])
    clearTimeout(timer)
    if (!drained) {
      child.kill('SIGKILL')
      await exited
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
    if (!drained)
      throw new Error(`the app did not stop within 15 s of SIGTERM:\n${log.slice(-3000)}`)
  }
}
