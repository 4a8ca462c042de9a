// A lost disk: the whole DATA_DIR is gone, BACKUP_DIR (on another disk) and BACKUP_KEY are
// left. `npm run restore -- --to latest --data-dir <new DATA_DIR>` and a start bring back the
// operators (their authenticator secrets open with the restored key), a published proof of
// liabilities (sealed with the restored seal key), an uploaded image, every balance, and the
// local chain with its contracts: a withdrawal asked after the restore is paid.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { OperatorSession, UploadedImage } from '@hope/api'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { base32Decode, hotp, totpStep } from '../../apps/server/src/lib/totp.ts'
import {
  approveWithdrawal,
  credit,
  ok,
  withdrawToFresh,
  type Operators,
  type User,
} from './support/api.ts'
import { chainClient, tokenBalance } from './support/chain.ts'
import { ledgerVerify, userBalances } from './support/checks.ts'
import { HopeServer, runScript, waitFor } from './support/server.ts'
import { startWithMember } from './support/suite.ts'

/** A 1×1 lossless WebP. */
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64')
const USDT = (n: number) => BigInt(n) * 1_000_000n

// BACKUP_DIR on "another disk": outside the DATA_DIR that is lost.
const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-faults-backups-'))
fs.chmodSync(elsewhere, 0o755)
const env = {
  BACKUP_DIR: path.join(elsewhere, 'backup'),
  BACKUP_KEY: randomBytes(32).toString('hex'),
  BACKUP_ARCHIVE_TIMEOUT_S: '3',
}

let server: HopeServer
let restored: HopeServer
let ops: Operators
let user: User
const report: string[] = []

beforeAll(async () => {
  server = await HopeServer.create()
  ;({ ops, user } = await startWithMember(server, { env, freshPayouts: true }))
})

afterAll(async () => {
  await server?.dispose()
  await restored?.dispose()
  fs.rmSync(elsewhere, { recursive: true, force: true })
  if (report.length) console.info(report.join('\n'))
})

/** A new operator made as an operator would, with what signs it in again later. */
async function makeOperator(on: HopeServer, username: string) {
  const made = await runScript(
    'create-operator.ts',
    on.dataDir,
    [username, 'finance', '--json'],
    env,
  )
  expect(made.code, made.stderr).toBe(0)
  const line = JSON.parse(made.stdout.trim().split('\n').at(-1)!) as {
    password: string
    otpauthUri: string
  }
  return {
    username,
    password: line.password,
    secret: base32Decode(new URL(line.otpauthUri).searchParams.get('secret')!)!,
  }
}

const signIn = (on: HopeServer, op: Awaited<ReturnType<typeof makeOperator>>, at = Date.now()) =>
  ok<OperatorSession>(on.baseUrl, 'admin/login', {
    username: op.username,
    password: op.password,
    code: hotp(op.secret, totpStep(at)),
  })

test('a lost DATA_DIR restored from BACKUP_DIR and BACKUP_KEY: operators, proofs, uploads, balances and payouts', async () => {
  const operator = await makeOperator(server, 'restore-finance')
  await signIn(server, operator)
  await credit(server, ops, user.userName, '100')

  const uploadRes = await fetch(`${server.baseUrl}/api/admin/upload`, {
    method: 'POST',
    headers: { token: ops.admin, 'content-type': 'image/webp' },
    body: WEBP,
  })
  const uploaded = ((await uploadRes.json()) as { data: UploadedImage }).data
  expect(uploadRes.status).toBe(200)
  const image = Buffer.from(await (await fetch(`${server.baseUrl}${uploaded.url}`)).arrayBuffer())

  // A snapshot with the user in it (the registry takes one a minute after the one of the start).
  await ok(server.baseUrl, 'admin/porPublish', {}, ops.admin)
  const proof = await waitFor(
    'a published proof of liabilities with the credit',
    async () => {
      const res = await fetch(`${server.baseUrl}/api/por/myProof`, {
        method: 'POST',
        headers: { token: user.token },
      })
      const body = (await res.json()) as {
        data?: { snapshotId: string; balance: { usdt: string } }
      }
      return body.data?.balance?.usdt === String(USDT(100)) ? body.data : null
    },
    150_000,
    1_000,
  )
  expect(proof.balance.usdt).toBe(String(USDT(100)))

  const backup = await runScript('backup.ts', server.dataDir, [], env)
  expect(backup.code, backup.stderr).toBe(0)
  expect(backup.stdout).toMatch(
    /with the keys operator-secret.key, por-seal.key encrypted with BACKUP_KEY, \d+ uploaded file\(s\), the local chain state/,
  )
  report.push(`[deployment backup] ${backup.stdout.trim().split('\n').slice(0, 2).join('; ')}`)
  // After the base backup: in the archive only.
  await credit(server, ops, user.userName, '50')
  expect((await server.stop()).code).toBe(0)

  // The disk is lost.
  fs.rmSync(server.dataDir, { recursive: true, force: true })

  restored = await HopeServer.create()
  const started = Date.now()
  const r = await runScript(
    'restore.ts',
    restored.dataDir,
    ['--to', 'latest', '--data-dir', restored.dataDir],
    env,
  )
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0)
  expect(r.stdout).toContain('restored key operator-secret.key')
  expect(r.stdout).toContain('restored key por-seal.key')
  expect(r.stdout).toContain('restored the local chain state')
  expect(r.stdout).toMatch(/restored \d+ uploaded file\(s\)/)
  report.push(`[deployment restore] a lost DATA_DIR restored in ${Date.now() - started} ms`)

  await restored.start(env)
  // The operator signs in: the restored key opens the authenticator secret (a fresh code).
  const session = await signIn(restored, operator, Date.now() + 30_000)
  expect(session.token).toBeTruthy()
  // The balance, with the credit made after the base backup.
  const pool = restored.openPool()
  try {
    expect((await userBalances(pool, [user.userName])).get(user.userName)!.balance).toBe(USDT(150))
  } finally {
    await pool.end()
  }
  // The sealed proof opens.
  const again = await ok<{ snapshotId: string; balance: { usdt: string } }>(
    restored.baseUrl,
    'por/myProof',
    {},
    user.token,
  )
  expect(again).toEqual(proof)
  // The image shows.
  const served = await fetch(`${restored.baseUrl}${uploaded.url}`)
  expect(served.status).toBe(200)
  expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true)
  // The chain's contracts are there: a withdrawal is paid.
  const { id, to } = await withdrawToFresh(restored, user, USDT(30))
  await approveWithdrawal(restored, session.token, id)
  const token = (
    await ok<{ tokenAddress: string }>(restored.baseUrl, 'userAccount/getAddress', {}, user.token)
  ).tokenAddress as `0x${string}`
  const client = chainClient(restored)
  await waitFor(
    'the withdrawal to be paid on the restored chain',
    async () => (await tokenBalance(client, token, to)) === USDT(30),
    60_000,
    250,
  )
  expect(await ledgerVerify(restored)).toMatch(/^ledger OK/)
  report.push(
    '[deployment restore] operators sign in, the proof opens, the image shows, 150 USDT exact, a 30 USDT withdrawal paid',
  )
})
