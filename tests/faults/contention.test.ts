import { randomInt } from 'node:crypto'
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  call,
  credit,
  inParallel,
  newKey,
  registerLine,
  type Answer,
  type User,
} from './support/api.ts'
import { ledgerVerify } from './support/checks.ts'
import { startWithOperators } from './support/suite.ts'
import { HopeServer } from './support/server.ts'

// One user's burst of purchases on the shared sale (the lock every purchase takes), then many
// connections of mixed money requests: contention is answered with a wait or a reason, never
// 500, and another user's reads stay quick.

const USERS = 20
const CONNECTIONS = 64
const SECONDS = Number(process.env.FAULTS_CONTENTION_SECONDS ?? 60)
let server: HopeServer
let users: User[]

beforeAll(async () => {
  server = await HopeServer.create()
  const ops = await startWithOperators(server)
  // A line: everyone after a member is in that member's downline.
  users = await registerLine(server, USERS)
  await inParallel(users, 4, (u, i) =>
    credit(server, ops, u.userName, i === 0 ? '1000000' : '20000'),
  )
})

afterAll(async () => {
  // A failure's own words, from the app's log (its request id is in the answer).
  const errors = (server?.output(200_000) ?? '').split('\n').filter((l) => /"level":50/.test(l))
  if (errors.length) console.info(`[contention] the app logged:\n${errors.slice(-5).join('\n')}`)
  await server?.dispose()
})

const answers: Answer<unknown>[] = []
const send = async (path: string, params: Record<string, string>, user: User) => {
  const a = await call(server.baseUrl, path, params, { token: user.token, timeoutMs: 60_000 })
  answers.push(a)
  return a
}
const failures = () =>
  answers
    .filter((a) => a.status <= 0 || a.status >= 500)
    .map((a) => `${a.status} ${JSON.stringify(a.body)}`)

/** Another user's balance, read over and over while `until` is pending: each read's ms. */
async function readWhile(reader: User, until: Promise<unknown>): Promise<number[]> {
  const ms: number[] = []
  let done = false
  void until.finally(() => (done = true))
  while (!done) {
    const a = await call(server.baseUrl, 'userAccount/balance', {}, { token: reader.token })
    expect(a.status).toBe(200)
    ms.push(a.ms)
  }
  return ms
}

const p99 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length * 0.99)] ?? 0

test('a burst of entries and activations from one user, then mixed money traffic: no 5xx, reads stay quick', async () => {
  const [rich, ...downline] = users as [User, ...User[]]
  const reader = downline.at(-1)!

  // The burst: entries and activations of every downline member at once, all on the sale.
  const burst = Promise.all([
    ...Array.from({ length: 30 }, () =>
      send('game/change', { amount: '100', idempotencyKey: newKey('burst') }, rich),
    ),
    ...Array.from({ length: 50 }, (_, i) =>
      send(
        'game/activate',
        {
          address: downline[i % downline.length]!.account.address,
          level: String(1 + Math.floor(i / downline.length)),
          idempotencyKey: newKey('act'),
        },
        rich,
      ),
    ),
  ])
  const burstReads = await readWhile(reader, burst)
  expect(failures()).toEqual([])

  // Mixed money requests from every user on many connections.
  const deadline = Date.now() + SECONDS * 1000
  const client = async (c: number) => {
    const me = users[c % USERS]!
    const below = users.slice((c % USERS) + 1)
    while (Date.now() < deadline) {
      const roll = randomInt(0, 100)
      const key = newKey('mix')
      if (roll < 25 && below.length) {
        const to = below[randomInt(0, below.length)]!
        await send(
          'userAccount/transfer',
          { address: to.account.address, amount: '1', idempotencyKey: key },
          me,
        )
      } else if (roll < 45) {
        await send('game/change', { amount: '100', idempotencyKey: key }, me)
      } else if (roll < 60 && below.length) {
        const to = below[randomInt(0, below.length)]!
        await send(
          'game/activate',
          { address: to.account.address, level: String(randomInt(1, 8)), idempotencyKey: key },
          me,
        )
      } else if (roll < 70) {
        await send('game/upgrade', { level: String(randomInt(1, 8)), idempotencyKey: key }, me)
      } else if (roll < 75) {
        await send(
          'userAccount/withdraw',
          { amount: '10', address: me.account.address, idempotencyKey: key },
          me,
        )
      } else {
        await send('userAccount/balance', {}, me)
      }
    }
  }
  const mixed = Promise.all(Array.from({ length: CONNECTIONS }, (_, c) => client(c)))
  const mixedReads = await readWhile(reader, mixed)

  expect(failures()).toEqual([])
  const reads = [...burstReads, ...mixedReads]
  console.info(
    `[faults] contention: ${answers.length} money requests (80 in the burst, then ${CONNECTIONS} connections for ${SECONDS} s), ` +
      `0 5xx; another user's balance read ${reads.length} times, p99 ${p99(reads)} ms (burst ${p99(burstReads)} ms); ` +
      `answers by status: ${JSON.stringify(Object.fromEntries(countBy(answers.map((a) => `${a.status} ${a.body?.reason ?? 'ok'}`))))}`,
  )
  expect(p99(reads)).toBeLessThan(500)
  expect(await ledgerVerify(server)).toMatch(/ledger OK/)
})

function countBy(keys: string[]): Map<string, number> {
  const m = new Map<string, number>()
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1)
  return m
}
