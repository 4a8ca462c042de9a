import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { HopeServer, isAlive, waitFor } from './support/server.ts'

// A worker whose event loop stops answering (stuck, or stopped) is replaced by the primary, so
// the port keeps serving without an operator.

const STALL_MS = 3_000
let server: HopeServer

beforeAll(async () => {
  server = await HopeServer.create()
  await server.start({ WEB_CONCURRENCY: '2', WORKER_STALL_MS: String(STALL_MS) })
})

afterAll(async () => {
  await server?.dispose()
})

/** The primary's worker processes (its Node children running the server). */
function workerPids(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(server.pid)], {
    encoding: 'utf8',
  })
  return out
    .split('\n')
    .filter((line) => line.includes('server.ts'))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
}

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
  const replaced = await waitFor(
    'the stopped worker to be replaced',
    () => {
      const pids = workerPids()
      return !isAlive(stopped) && pids.length === 2 ? pids : null
    },
    STALL_MS + 30_000,
  ).catch((e: Error) => {
    throw new Error(`${e.message}; the app said:\n${server.output()}`)
  })
  expect(replaced).not.toContain(stopped)
  expect(replaced).toContain(before[1])
  // A worker stopped while it is still starting is replaced as well.
  const fresh = replaced.find((pid) => pid !== before[1])!
  process.kill(fresh, 'SIGSTOP')
  await waitFor(
    'the worker stopped while starting to be replaced',
    () => {
      const pids = workerPids()
      return !isAlive(fresh) && pids.length === 2 ? pids : null
    },
    STALL_MS + 30_000,
  ).catch((e: Error) => {
    throw new Error(`${e.message}; the app said:\n${server.output()}`)
  })
  // The new worker serves: every request of a burst is answered.
  await waitFor(
    'the new worker to serve',
    async () => (await price().catch(() => 0)) === 200,
    60_000,
  )
  const statuses = await Promise.all(Array.from({ length: 20 }, () => price().catch(() => 0)))
  expect(statuses).toEqual(Array(20).fill(200))
})
