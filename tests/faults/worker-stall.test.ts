import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { devKey, LOCAL_ROLES } from '../../apps/server/src/chain/local-chain.ts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { HopeServer, isAlive, waitFor } from './support/server.ts'

// A worker whose event loop stops answering (stuck, or stopped) is replaced by the primary, so
// the port keeps serving without an operator.

const STALL_MS = 3_000
let server: HopeServer

beforeAll(async () => {
  server = await HopeServer.create()
  // LOG_LEVEL info: the primary's lines saying which worker serves.
  await server.start({ WEB_CONCURRENCY: '2', WORKER_STALL_MS: String(STALL_MS), LOG_LEVEL: 'info' })
})

afterAll(async () => {
  await server?.dispose()
})

/** A process's environment as the kernel holds it (what it was started with). */
function environOf(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')
  } catch {
    return []
  }
}

/** The primary's Node children running the server: its workers and its signer. */
function serverChildren(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(server.pid)], {
    encoding: 'utf8',
  })
  return out
    .split('\n')
    .filter((line) => line.includes('server.ts'))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
}

const isSigner = (pid: number) => environOf(pid).includes('HOPE_ROLE=signer')

/** The primary's worker processes. */
const workerPids = () => serverChildren().filter((pid) => !isSigner(pid))

/** Waits until worker `pid` is gone and two workers run again; their pids. */
const replacement = (pid: number, what: string) =>
  waitFor(
    what,
    () => {
      const pids = workerPids()
      return !isAlive(pid) && pids.length === 2 ? pids : null
    },
    STALL_MS + 30_000,
  ).catch((e: Error) => {
    throw new Error(`${e.message}; the app said:\n${server.output()}`)
  })

const price = async () => {
  const res = await fetch(`${server.baseUrl}/api/main/getETLDPrice`, {
    method: 'POST',
    signal: AbortSignal.timeout(5_000),
  })
  return res.status
}

test('a stopped worker, serving or starting, is replaced and every request is answered again', async () => {
  // Both workers serving (a worker still starting is replaced too, but this test stops one
  // that serves and keeps the other).
  const before = await waitFor('two serving workers', () => {
    const pids = workerPids()
    const serving = pids.filter((pid) => server.output(200_000).includes(`worker ${pid} serving`))
    return serving.length === 2 ? pids : null
  })
  const stopped = before[0]!
  process.kill(stopped, 'SIGSTOP')
  const replaced = await replacement(stopped, 'the stopped worker to be replaced')
  expect(replaced).not.toContain(stopped)
  expect(replaced).toContain(before[1])
  // A worker stopped while it is still starting is replaced as well.
  const fresh = replaced.find((pid) => pid !== before[1])!
  process.kill(fresh, 'SIGSTOP')
  await replacement(fresh, 'the worker stopped while starting to be replaced')
  // The new worker serves: every request of a burst is answered.
  await waitFor(
    'the new worker to serve',
    async () => (await price().catch(() => 0)) === 200,
    60_000,
  )
  const statuses = await Promise.all(Array.from({ length: 20 }, () => price().catch(() => 0)))
  expect(statuses).toEqual(Array(20).fill(200))
})

test('no web worker holds a private key, and the signer’s comes through no environment', async () => {
  const workers = await waitFor('two workers', () => {
    const pids = workerPids()
    return pids.length === 2 ? pids : null
  })
  const keys = [devKey(LOCAL_ROLES.hotWallet), devKey(LOCAL_ROLES.deployer)].map((k) =>
    k.slice(2).toLowerCase(),
  )
  for (const pid of workers) {
    const env = environOf(pid)
    expect(env.length).toBeGreaterThan(0)
    expect(env.filter((line) => /^(HOT_WALLET_KEY|POR_PUBLISHER_KEY)=./.test(line))).toEqual([])
    for (const key of keys) expect(env.join('\n').toLowerCase()).not.toContain(key)
    // It knows where to ask instead.
    expect(env.some((line) => line.startsWith('SIGNER_URL=http://127.0.0.1:'))).toBe(true)
  }
  const signers = serverChildren().filter(isSigner)
  expect(signers).toHaveLength(1)
  for (const key of keys) expect(environOf(signers[0]!).join('\n').toLowerCase()).not.toContain(key)
})
