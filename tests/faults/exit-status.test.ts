import net from 'node:net'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { HopeServer, isAlive, waitFor } from './support/server.ts'

// What the app's exit status tells a supervisor (systemd, a container runtime, a shell): 0 after
// a drained stop, non-zero with the reason when a start fails, and nothing left running.

let server: HopeServer | null = null

afterEach(async () => {
  await server?.dispose()
  server = null
})

/** The embedded PostgreSQL and Anvil the app started must be gone once it has exited. */
async function expectNothingLeft(app: HopeServer) {
  await waitFor(
    'the database and the chain to stop',
    () => !app.postmasterPid() && !app.anvilPid(),
    15_000,
  )
}

test.each([
  ['one process', {}],
  ['a primary with two workers', { WEB_CONCURRENCY: '2' }],
])('%s stopped by SIGTERM drains and exits 0', async (_name, env) => {
  server = await HopeServer.create()
  await server.start(env)
  const stopped = await server.stop()
  expect(stopped.code).toBe(0)
  await expectNothingLeft(server)
})

test.each([
  ['one process', {}],
  ['a primary with two workers', { WEB_CONCURRENCY: '2' }],
])(
  '%s on a port in use exits non-zero, names the port and stops what it started',
  async (_name, env) => {
    server = await HopeServer.create()
    const holder = net.createServer()
    await new Promise<void>((r) => holder.listen(server!.port, '127.0.0.1', r))
    try {
      const { code, output } = await server.runUntilExit(env)
      expect(code).not.toBe(0)
      expect(code).not.toBeNull()
      expect(output).toContain(`port ${server.port} on 127.0.0.1 is in use`)
      await expectNothingLeft(server)
    } finally {
      await new Promise((r) => holder.close(r))
    }
  },
)

test('a database that cannot start exits non-zero with the reason', async () => {
  server = await HopeServer.create()
  // Something that is not a PostgreSQL data directory where the app keeps its database.
  fs.mkdirSync(path.join(server.dataDir, 'pg'), { recursive: true })
  fs.writeFileSync(path.join(server.dataDir, 'pg', 'notes.txt'), 'not a database')
  const { code, output } = await server.runUntilExit()
  expect(code).toBe(1)
  expect(output).toContain('is not a PostgreSQL data directory')
  const anvil = server.anvilPid()
  expect(anvil && isAlive(anvil)).toBeFalsy()
})
