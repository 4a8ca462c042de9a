import { randomBytes } from 'node:crypto'
import net from 'node:net'
import { buildLoginMessage, CHAT_SOCKET_PATH, type LoginResult } from '@hope/api'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startAnvil, type LocalChain } from '../../apps/server/src/chain/anvil.ts'
import { DEMO_ROOT } from '../../apps/server/src/db/seed.ts'
import { call, ok, registerUser, type User } from './support/api.ts'
import { createDatabase, dropDatabase } from './support/postgres.ts'
import { HopeServer, waitFor } from './support/server.ts'

// Three server processes on one database (of its own, on TEST_DATABASE_URL's server) and one
// Redis: what one of them knows about sessions, limits and chat, the others know too.
const serverUrl = process.env.TEST_DATABASE_URL
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Whether Redis answers a PING at `url` within a second. */
function redisAnswers(url: string): Promise<boolean> {
  const u = new URL(url)
  return new Promise((resolve) => {
    const socket = net.connect(Number(u.port || 6379), u.hostname)
    const done = (answer: boolean) => {
      socket.destroy()
      resolve(answer)
    }
    socket.setTimeout(1_000, () => done(false))
    socket.on('error', () => done(false))
    socket.on('data', (d) => done(d.toString().startsWith('+PONG')))
    socket.on('connect', () => socket.write('PING\r\n'))
  })
}
const redisUp = await redisAnswers(redisUrl)
if (!redisUp)
  console.warn(`Redis does not answer at ${redisUrl}: the cluster counts its limits in PostgreSQL`)
if (!serverUrl) console.warn('TEST_DATABASE_URL is not set: the cluster test is skipped')

/** A chat socket signed in with `token`; resolves once the server says it is ready. */
async function chatSocket(server: HopeServer, token: string) {
  const socket = new WebSocket(`${server.baseUrl.replace('http', 'ws')}${CHAT_SOCKET_PATH}`)
  const frames: { type: string; message?: { body: string } }[] = []
  const closed = new Promise<number>((r) => socket.addEventListener('close', (e) => r(e.code)))
  socket.addEventListener('message', (e) => frames.push(JSON.parse(String(e.data))))
  await new Promise((r, j) => {
    socket.addEventListener('open', r)
    socket.addEventListener('error', j)
  })
  socket.send(JSON.stringify({ type: 'auth', token }))
  await waitFor('the chat socket to be ready', () => frames.some((f) => f.type === 'ready'), 10_000)
  return { socket, frames, closed }
}

describe.skipIf(!serverUrl)('three server processes on one database', () => {
  const dbName = `hope_cluster_${randomBytes(4).toString('hex')}`
  const servers: HopeServer[] = []
  let chain: LocalChain
  let owner: User

  beforeAll(async () => {
    const databaseUrl = await createDatabase(serverUrl!, dbName)
    chain = await startAnvil()
    const env = {
      DATABASE_URL: databaseUrl,
      CHAIN_RPC_URL: chain.url,
      CHAIN_ID: String(chain.chainId),
      REDIS_URL: redisUp ? redisUrl : '',
    }
    for (let i = 0; i < 3; i++) {
      const server = await HopeServer.create()
      // The first one migrates and seeds; the others find it done.
      await server.start({ ...env, SEED_DEMO: i === 0 ? 'true' : 'false' })
      servers.push(server)
    }
    owner = await registerUser(servers[0]!, DEMO_ROOT.userName)
  })

  afterAll(async () => {
    await Promise.all(servers.map((s) => (s.running ? s.stop() : null)))
    await chain?.stop()
    await dropDatabase(serverUrl!, dbName)
  })

  const a = () => servers[0]!
  const b = () => servers[1]!
  const c = () => servers[2]!

  test('a session opened on one instance works on the others', async () => {
    for (const s of servers) {
      const info = await ok<{ userName: string }>(s.baseUrl, 'user/getUserInfo', {}, owner.token)
      expect(info.userName.toLowerCase()).toBe(owner.userName)
    }
  })

  test('a chat message sent through instance A reaches the socket on instance C', async () => {
    const chat = await chatSocket(c(), owner.token)
    const body = `hello from A ${randomBytes(3).toString('hex')}`
    await ok(
      a().baseUrl,
      'chat/send',
      { clientId: randomBytes(8).toString('hex'), body },
      owner.token,
    )
    await waitFor(
      'the message on instance C',
      () => chat.frames.some((f) => f.type === 'message' && f.message?.body === body),
      10_000,
    )
    chat.socket.close()
  })

  test("eleven failed logins for one address over three instances count as one; the owner's login still succeeds", async () => {
    const reasons: (string | undefined)[] = []
    for (let i = 0; i < 11; i++) {
      const message = buildLoginMessage(Date.now())
      const signature = await privateKeyToAccount(generatePrivateKey()).signMessage({ message })
      const res = await call(servers[i % 3]!.baseUrl, 'user/logining', {
        username: owner.account.address,
        message,
        signature,
      })
      reasons.push(res.body?.reason)
    }
    expect(reasons.slice(0, 10)).toEqual(Array(10).fill('signature_invalid'))
    expect(reasons[10]).toBe('rate_limited')
    const message = buildLoginMessage(Date.now())
    const mine = await ok<LoginResult>(b().baseUrl, 'user/logining', {
      username: owner.account.address,
      message,
      signature: await owner.account.signMessage({ message }),
    })
    expect(mine.token).toBeTruthy()
    owner = { ...owner, token: mine.token }
  })

  test('logout on one instance ends the session everywhere, chat socket included', async () => {
    const chat = await chatSocket(c(), owner.token)
    await ok(b().baseUrl, 'user/logout', {}, owner.token)
    expect(
      await Promise.race([chat.closed, new Promise((r) => setTimeout(() => r(null), 10_000))]),
    ).toBe(4401)
    for (const s of servers) {
      const res = await call(s.baseUrl, 'user/getUserInfo', {}, { token: owner.token })
      expect(res.status).toBe(401)
      expect(res.body?.reason).toBe('session_expired')
    }
  })
})
