import { afterEach, expect, test } from 'vitest'
import { HopeServer } from './support/server.ts'

// Every line the app writes, from its start to its stop, in one process or a primary with its
// workers and signer, is JSON with a level and a time, as log collectors read it.

let server: HopeServer | null = null

afterEach(async () => {
  await server?.dispose()
  server = null
})

/** The lines of `output` that are not JSON objects with a numeric level and time. */
function unstructured(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.trim())
    .filter((line) => {
      try {
        const entry = JSON.parse(line) as { level?: unknown; time?: unknown }
        return typeof entry.level !== 'number' || typeof entry.time !== 'number'
      } catch {
        return true
      }
    })
}

test.each([
  ['one process', {}],
  ['a primary with two workers', { WEB_CONCURRENCY: '2' }],
])('%s writes only structured lines: start, signer, requests, stop', async (_name, env) => {
  server = await HopeServer.create()
  await server.start({ ...env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' })
  await fetch(`${server.baseUrl}/api/main/getETLDPrice`, { method: 'POST' })
  expect((await server.stop()).code).toBe(0)
  const output = server.output(200_000)
  const lines = output.split('\n').filter((l) => l.trim())
  // The start, the signer and the stop said something.
  expect(output).toMatch(/"process":"(server|primary)"/)
  expect(output).toContain('"process":"signer"')
  expect(lines.length).toBeGreaterThan(5)
  expect(unstructured(output)).toEqual([])
})
