// `npm run por:publish` right after a fresh start, as an operator runs it: a user credited just
// before it is in the snapshot it takes (not in the one the start took), and verifies with the
// pinned command line: the official registry and token, and the balance the app shows.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { credit, ok, type Operators, type User } from './support/api.ts'
import { startWithMember } from './support/suite.ts'
import { HopeServer, repoRoot, runScript } from './support/server.ts'

let server: HopeServer
let ops: Operators
let user: User

beforeAll(async () => {
  server = await HopeServer.create()
  ;({ ops, user } = await startWithMember(server))
})

afterAll(async () => {
  await server?.dispose()
})

function verifyCli(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, 'packages/por-verify/src/cli.ts'), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })))
}

test('a user credited just before npm run por:publish verifies with the pinned command', async () => {
  await credit(server, ops, user.userName, '42.125')
  const published = await runScript('por-publish.ts', server.dataDir, [], {
    POR_PUBLISH_TIMEOUT_MS: '120000',
  })
  expect(published.code, `${published.stdout}\n${published.stderr}`).toBe(0)
  expect(published.stdout).toMatch(/snapshot \d+ published in block \d+/)

  const proof = await ok<{ snapshotId: string; balance: { usdt: string } }>(
    server.baseUrl,
    'por/myProof',
    {},
    user.token,
  )
  expect(proof.balance.usdt).toBe('42125000')
  const official = await ok<{ porRegistryAddress: string; tokenAddress: string }>(
    server.baseUrl,
    'userAccount/getAddress',
    {},
    user.token,
  )
  const file = path.join(server.dataDir, 'proof.json')
  fs.writeFileSync(file, JSON.stringify(proof))
  const pinned = [
    file,
    '--rpc',
    server.chainRpcUrl(),
    '--registry',
    official.porRegistryAddress,
    '--token',
    official.tokenAddress,
    '--hope',
    '0',
    '--address',
    user.account.address,
  ]
  const verified = await verifyCli([...pinned, '--usdt', '42.125'])
  expect(verified.out).toMatch(/All 15 checks hold\./)
  expect(verified.code).toBe(0)

  // Off by less than a unit: an error, never rounded to a pass.
  const off = await verifyCli([...pinned, '--usdt', '42.1249995'])
  expect(off.code).toBe(2)
  expect(off.out).toMatch(/has 7 decimals; the currency has 6/)
  // Another balance than the one proven fails.
  const other = await verifyCli([...pinned, '--usdt', '42.12'])
  expect(other.code).toBe(1)
  expect(other.out).toMatch(/✗ balance/)
})
