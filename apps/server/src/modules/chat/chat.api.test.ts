import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import {
  CHAT_BODY_MAX,
  CHAT_CLOSE,
  CHAT_SOCKET_PATH,
  type AdminChatList,
  type AdminChatMessage,
  type ChatHistory,
  type ChatMessage,
  type ChatSendResult,
  type ChatServerFrame,
  type ChatUnread,
  type ContactInfo,
  type LoginResult,
  type OperatorRole,
} from '@hope/api'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import { openDatabase, type Database } from '../../db/pool.ts'
import {
  buildTestApp,
  call,
  databaseTargets,
  registerUser,
  signLogin,
  useTestDatabase,
  type TestUser,
} from '../../testing/index.ts'
import { tokenHash } from '../user/user.rules.ts'
import { CHAT_LISTENER_NAME } from './chat.hub.ts'
import { CHAT_MESSAGES_PER_MINUTE } from './chat.service.ts'

/** A chat socket as a client sees it: every frame in order, and how it closed. */
class TestSocket {
  readonly frames: ChatServerFrame[] = []
  readonly closed: Promise<{ code: number; reason: string }>
  private waiters: (() => void)[] = []

  readonly ws: WebSocket

  private constructor(ws: WebSocket) {
    this.ws = ws
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)) as ChatServerFrame)
      for (const wake of this.waiters.splice(0)) wake()
    })
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        resolve({ code, reason: String(reason) })
        for (const wake of this.waiters.splice(0)) wake()
      }),
    )
  }

  static async open(app: FastifyInstance): Promise<TestSocket> {
    const { port } = app.server.address() as AddressInfo
    const ws = new WebSocket(`ws://127.0.0.1:${port}${CHAT_SOCKET_PATH}`)
    await new Promise((resolve, reject) => {
      ws.once('open', resolve)
      ws.once('error', reject)
    })
    return new TestSocket(ws)
  }

  /** Opens a socket on `app` and authenticates it as `user`; resolves on `ready`. */
  static async signedIn(app: FastifyInstance, user: { token: string }): Promise<TestSocket> {
    const socket = await TestSocket.open(app)
    socket.send({ type: 'auth', token: user.token, lan: 'en_US' })
    await socket.next((f) => f.type === 'ready')
    return socket
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  /** The first frame (from the start) that matches; waits for it up to `timeoutMs`. */
  async next<F extends ChatServerFrame>(
    match: (f: ChatServerFrame) => boolean,
    timeoutMs = 5_000,
  ): Promise<F> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = this.frames.find(match)
      if (found) return found as F
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error('socket closed')
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no such frame in ${JSON.stringify(this.frames)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  messages(): ChatMessage[] {
    return this.frames.flatMap((f) => (f.type === 'message' ? [f.message] : []))
  }

  async close(): Promise<void> {
    if (this.ws.readyState !== WebSocket.CLOSED) {
      this.ws.close()
      await this.closed
    }
  }
}

const isMessage = (body: string) => (f: ChatServerFrame) =>
  f.type === 'message' && f.message.body === body

/**
 * An operator with a live session, made in the database: signing in (password and second
 * factor) is the operator module's to test.
 */
async function operatorToken(db: Database, username: string, role: OperatorRole) {
  const token = randomBytes(32).toString('base64url')
  const op = await db.pool.query<{ id: string }>(
    `INSERT INTO operators (username, password_hash, role) VALUES ($1, 'unused', $2) RETURNING id`,
    [username, role],
  )
  await db.pool.query(
    `INSERT INTO operator_sessions (operator_id, token_hash, expires_at)
     VALUES ($1, $2, now() + interval '1 hour')`,
    [op.rows[0]!.id, tokenHash(token)],
  )
  return token
}

let n = 0
const clientId = () => `c${Date.now().toString(36)}x${++n}`
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** `promise`, or a failure naming the wait when it takes longer than `ms`. */
const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    pause(ms).then(() => {
      throw new Error(`${what}: not within ${ms} ms`)
    }),
  ])

describe.each(databaseTargets())('chat API on $name', (target) => {
  const t = useTestDatabase(target)
  // Two server processes on one database: each its own app, pool and listening connection.
  let dbB: Database
  let appA: FastifyInstance
  let appB: FastifyInstance
  let alice: TestUser
  let bob: TestUser
  let support: string
  let finance: string
  const sockets: TestSocket[] = []
  const open = async (app: FastifyInstance, user: TestUser) => {
    const s = await TestSocket.signedIn(app, user)
    sockets.push(s)
    return s
  }

  beforeAll(async () => {
    dbB = openDatabase(t.db.url, 5)
    appA = await buildTestApp(t.db)
    appB = await buildTestApp(dbB)
    await appA.listen({ port: 0, host: '127.0.0.1' })
    await appB.listen({ port: 0, host: '127.0.0.1' })
    alice = await registerUser(appA)
    bob = await registerUser(appA)
    support = await operatorToken(t.db, 'helpdesk', 'support')
    finance = await operatorToken(t.db, 'fin', 'finance')
  })
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()))
    await appA?.close()
    await appB?.close()
    await dbB?.close()
  })

  describe('socket authentication', () => {
    test('a wrong token closes the socket with 4401 and the reason', async () => {
      const socket = await TestSocket.open(appA)
      socket.send({ type: 'auth', token: 'A'.repeat(43) })
      expect(await socket.closed).toEqual({
        code: CHAT_CLOSE.authFailed,
        reason: 'session_expired',
      })
    })

    test('a first frame that is not auth closes the socket', async () => {
      const socket = await TestSocket.open(appA)
      socket.send({ type: 'send', clientId: clientId(), body: 'hello' })
      expect(await socket.closed).toEqual({ code: CHAT_CLOSE.authFailed, reason: 'not_logged_in' })
      const garbage = await TestSocket.open(appA)
      garbage.send('not json')
      expect((await garbage.closed).code).toBe(CHAT_CLOSE.authFailed)
    })

    test('no auth frame in time closes with 4408', { timeout: 15_000 }, async () => {
      const socket = await TestSocket.open(appA)
      const started = Date.now()
      expect(await socket.closed).toEqual({ code: CHAT_CLOSE.authTimeout, reason: 'auth_timeout' })
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_500)
    })

    test('a plain GET without the upgrade is not the chat', async () => {
      const res = await appA.inject({ method: 'GET', url: CHAT_SOCKET_PATH })
      expect(res.statusCode).toBe(404)
    })
  })

  test('a message sent on instance A reaches the same user on instance B, with an ack', async () => {
    const onA = await open(appA, alice)
    const onB = await open(appB, alice)
    const id = clientId()
    onA.send({ type: 'send', clientId: id, body: '  where is my deposit?  ' })
    const ack = await onA.next<Extract<ChatServerFrame, { type: 'ack' }>>(
      (f) => f.type === 'ack' && f.clientId === id,
    )
    expect(ack.message).toMatchObject({
      clientId: id,
      sender: 'user',
      body: 'where is my deposit?',
    })
    const onOther = await onB.next<Extract<ChatServerFrame, { type: 'message' }>>(
      isMessage('where is my deposit?'),
    )
    expect(onOther.message).toEqual(ack.message)
  })

  test('an operator reply through A arrives live on B, and never on another user’s socket', async () => {
    const aliceOnB = await open(appB, alice)
    const bobOnB = await open(appB, bob)
    const bobOnA = await open(appA, bob)
    const reply = await call<'admin/chatReply', ChatSendResult<AdminChatMessage>>(
      appA,
      'admin/chatReply',
      { userName: alice.userName, clientId: clientId(), body: 'We are looking into it' },
      { token: support },
    )
    expect(reply.body.data.message).toMatchObject({ sender: 'operator', operator: 'helpdesk' })
    const live = await aliceOnB.next<Extract<ChatServerFrame, { type: 'message' }>>(
      isMessage('We are looking into it'),
    )
    expect(live.message).not.toHaveProperty('operator')
    expect(live.message.id).toBe(reply.body.data.message.id)

    // Bob's own message is the first and only thing Bob's sockets see.
    const mine = clientId()
    bobOnA.send({ type: 'send', clientId: mine, body: 'bob here' })
    await bobOnB.next(isMessage('bob here'))
    await bobOnA.next(isMessage('bob here'))
    for (const s of [bobOnA, bobOnB]) expect(s.messages().map((m) => m.body)).toEqual(['bob here'])

    const audit = await t.db.pool.query(
      `SELECT a.action, a.after FROM operator_audit a JOIN users u ON u.id = a.target_user_id
       WHERE u.user_name = $1`,
      [alice.userName],
    )
    expect(audit.rows).toEqual([
      { action: 'chat_reply', after: { messageId: reply.body.data.message.id } },
    ])
  })

  test('history is always the token’s own conversation', async () => {
    const carol = await registerUser(appA)
    const dave = await registerUser(appA)
    const shared = clientId()
    for (const [user, body] of [
      [carol, 'carol secret'],
      [dave, 'dave secret'],
    ] as const) {
      const res = await call<'chat/send', ChatSendResult>(
        appB,
        'chat/send',
        { clientId: shared, body },
        { token: user.token },
      )
      expect(res.body.data).toMatchObject({ replayed: false, message: { body } })
    }
    for (const [user, own] of [
      [carol, 'carol secret'],
      [dave, 'dave secret'],
    ] as const) {
      const history = await call<'chat/history', ChatHistory>(
        appA,
        'chat/history',
        { userName: alice.userName },
        { token: user.token },
      )
      expect(history.body.data.list.map((m) => m.body)).toEqual([own])
    }
    const anonymous = await call(appA, 'chat/history', {})
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.reason).toBe('not_logged_in')
  })

  test('operator routes refuse user tokens and a finance operator, and write nothing', async () => {
    const before = await t.db.pool.query('SELECT count(*)::int AS n FROM chat_messages')
    const routes = [
      ['admin/chatList', {}],
      ['admin/chatHistory', { userName: alice.userName }],
      ['admin/chatReply', { userName: alice.userName, clientId: clientId(), body: 'x' }],
      ['admin/chatRead', { userName: alice.userName, upToId: 1 }],
    ] as const
    for (const [path, params] of routes) {
      const asUser = await call(appA, path, params, { token: alice.token })
      expect(asUser.status, path).toBe(401)
      expect(asUser.body.reason, path).toBe('session_expired')
      const asFinance = await call(appA, path, params, { token: finance })
      expect(asFinance.status, path).toBe(403)
      expect(asFinance.body.reason, path).toBe('forbidden')
    }
    const after = await t.db.pool.query('SELECT count(*)::int AS n FROM chat_messages')
    expect(after.rows[0].n).toBe(before.rows[0].n)
  })

  test('a resend with the same client id, on the socket or over HTTP, is stored once', async () => {
    const user = await registerUser(appA)
    const first = await open(appA, user)
    const id = clientId()
    first.send({ type: 'send', clientId: id, body: 'only once' })
    const ack = await first.next<Extract<ChatServerFrame, { type: 'ack' }>>(
      (f) => f.type === 'ack' && f.clientId === id,
    )
    // The reconnect after a dropped connection resends on the other instance, then over HTTP.
    await first.close()
    const second = await open(appB, user)
    second.send({ type: 'send', clientId: id, body: 'only once' })
    const again = await second.next<Extract<ChatServerFrame, { type: 'ack' }>>(
      (f) => f.type === 'ack' && f.clientId === id,
    )
    expect(again.message).toEqual(ack.message)
    const viaHttp = await call<'chat/send', ChatSendResult>(
      appA,
      'chat/send',
      { clientId: id, body: 'only once' },
      { token: user.token },
    )
    expect(viaHttp.body.data).toEqual({ message: ack.message, replayed: true })
    const conflict = await call(
      appA,
      'chat/send',
      { clientId: id, body: 'something else' },
      { token: user.token, lang: 'en' },
    )
    expect(conflict.status).toBe(409)
    expect(conflict.body.reason).toBe('idempotency_conflict')
    const history = await call<'chat/history', ChatHistory>(
      appA,
      'chat/history',
      {},
      { token: user.token },
    )
    expect(history.body.data.list.map((m) => m.body)).toEqual(['only once'])
    // Whatever arrives live for that client id is the one stored message.
    await pause(300)
    for (const live of second.messages().filter((m) => m.clientId === id))
      expect(live).toEqual(ack.message)
  })

  test('history pages newest first by message id, every message once', async () => {
    const user = await registerUser(appA)
    const bodies = Array.from({ length: 7 }, (_, i) => `message ${i + 1}`)
    for (const body of bodies)
      await call(appA, 'chat/send', { clientId: clientId(), body }, { token: user.token })
    const seen: string[] = []
    let beforeId: number | null | undefined
    const sizes: number[] = []
    do {
      const page = await call<'chat/history', ChatHistory>(
        appB,
        'chat/history',
        { pageSize: 3, beforeId: beforeId ?? undefined },
        { token: user.token },
      )
      const ids = page.body.data.list.map((m) => m.id)
      expect(ids).toEqual([...ids].sort((a, b) => b - a))
      sizes.push(ids.length)
      seen.push(...page.body.data.list.map((m) => m.body))
      beforeId = page.body.data.nextBeforeId
    } while (beforeId !== null)
    expect(sizes).toEqual([3, 3, 1])
    expect(seen).toEqual([...bodies].reverse())
    const bad = await call(appA, 'chat/history', { beforeId: 'x' }, { token: user.token })
    expect(bad.body.reason).toBe('invalid_params')
  })

  test('unread counts: each side counts the other’s messages after its read marker', async () => {
    const user = await registerUser(appA)
    const unread = async () =>
      (await call<'chat/unread', ChatUnread>(appA, 'chat/unread', {}, { token: user.token })).body
        .data.count
    const operatorUnread = async () => {
      const list = await call<'admin/chatList', AdminChatList>(
        appA,
        'admin/chatList',
        { pageSize: 100 },
        { token: support },
      )
      return list.body.data.list.find((c) => c.userName === user.userName)
    }
    expect(await unread()).toBe(0)
    await call(appA, 'chat/send', { clientId: clientId(), body: 'hi' }, { token: user.token })
    await call(appA, 'chat/send', { clientId: clientId(), body: 'anyone?' }, { token: user.token })
    expect(await operatorUnread()).toMatchObject({
      unread: 2,
      lastMessage: { body: 'anyone?', sender: 'user' },
    })
    const replies: number[] = []
    for (const body of ['hello', 'how can we help?']) {
      const r = await call<'admin/chatReply', ChatSendResult<AdminChatMessage>>(
        appB,
        'admin/chatReply',
        { userName: user.userName, clientId: clientId(), body },
        { token: support },
      )
      replies.push(r.body.data.message.id)
    }
    // Replying means the operator has read the conversation.
    expect(await operatorUnread()).toMatchObject({
      unread: 0,
      lastMessage: { operator: 'helpdesk' },
    })
    expect(await unread()).toBe(2)
    const socket = await open(appB, user)
    expect(socket.frames[0]).toEqual({ type: 'ready', unread: 2 })

    const partly = await call<'chat/read', ChatUnread>(
      appA,
      'chat/read',
      { upToId: replies[0] },
      { token: user.token },
    )
    expect(partly.body.data.count).toBe(1)
    // A marker never moves back, and never past the last message.
    await call(appA, 'chat/read', { upToId: 1 }, { token: user.token })
    expect(await unread()).toBe(1)
    await call(appA, 'chat/read', { upToId: 999_999_999 }, { token: user.token })
    expect(await unread()).toBe(0)
    await call(
      appA,
      'admin/chatReply',
      { userName: user.userName, clientId: clientId(), body: 'ok?' },
      {
        token: support,
      },
    )
    expect(await unread()).toBe(1)

    await call(appA, 'chat/send', { clientId: clientId(), body: 'yes' }, { token: user.token })
    expect((await operatorUnread())?.unread).toBe(1)
    const last = (await operatorUnread())!.lastMessage!.id
    const read = await call<'admin/chatRead', ChatUnread>(
      appA,
      'admin/chatRead',
      { userName: user.userName, upToId: last },
      { token: support },
    )
    expect(read.body.data.count).toBe(0)
    const history = await call<'admin/chatHistory', ChatHistory<AdminChatMessage>>(
      appA,
      'admin/chatHistory',
      { userName: user.userName, pageSize: 2 },
      { token: support },
    )
    expect(history.body.data.list.map((m) => [m.sender, m.body, m.operator])).toEqual([
      ['user', 'yes', null],
      ['operator', 'ok?', 'helpdesk'],
    ])
    const unknown = await call(
      appA,
      'admin/chatHistory',
      { userName: '0x0000000000000000000000000000000000000001' },
      { token: support },
    )
    expect(unknown.body.reason).toBe('not_registered')
  })

  test('bodies are trimmed; empty or too long ones are refused in the user’s language', async () => {
    const user = await registerUser(appA)
    for (const [body, reason, msg] of [
      ['   ', 'chat_message_empty', 'Please enter a message'],
      [
        'x'.repeat(CHAT_BODY_MAX + 1),
        'chat_message_too_long',
        'The message is too long (at most 1000 characters)',
      ],
    ] as const) {
      const res = await call(
        appA,
        'chat/send',
        { clientId: clientId(), body },
        { token: user.token, lang: 'en' },
      )
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ reason, msg })
    }
    const badId = await call(
      appA,
      'chat/send',
      { clientId: 'no', body: 'x' },
      { token: user.token },
    )
    expect(badId.body.reason).toBe('invalid_params')

    const socket = await open(appA, user)
    socket.send({ type: 'send', clientId: 'c-empty-1', body: '\n  \t' })
    expect(
      await socket.next((f) => f.type === 'error' && f.clientId === 'c-empty-1'),
    ).toMatchObject({ code: 400, reason: 'chat_message_empty', msg: 'Please enter a message' })
    socket.send({ not: 'a frame' })
    expect(await socket.next((f) => f.type === 'error' && !f.clientId)).toMatchObject({
      reason: 'invalid_params',
    })
    socket.send({ type: 'ping' })
    await socket.next((f) => f.type === 'pong')
    const longest = 'y'.repeat(CHAT_BODY_MAX)
    const ok = await call<'chat/send', ChatSendResult>(
      appA,
      'chat/send',
      { clientId: clientId(), body: longest },
      { token: user.token },
    )
    expect(ok.body.data.message.body).toBe(longest)
    const count = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM chat_messages m JOIN chat_conversations c ON c.id = m.conversation_id
       WHERE c.user_id = $1`,
      [user.id],
    )
    expect(count.rows[0].n).toBe(1)
  })

  test('a user sending too fast is slowed down', async () => {
    const user = await registerUser(appA)
    for (let i = 0; i < CHAT_MESSAGES_PER_MINUTE; i++) {
      const res = await call(
        appA,
        'chat/send',
        { clientId: clientId(), body: `m${i}` },
        { token: user.token },
      )
      expect(res.body.code).toBe(200)
    }
    const over = await call(
      appA,
      'chat/send',
      { clientId: clientId(), body: 'one more' },
      { token: user.token },
    )
    expect(over.status).toBe(429)
    expect(over.body.reason).toBe('rate_limited')
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)
  })

  test('the listener comes back after its connection drops, and nothing is lost', async () => {
    const user = await registerUser(appA)
    const onB = await open(appB, user)
    /** A reply written through app A, heard on app B's socket. */
    const replyHeardOnB = async (body: string) => {
      await call(
        appA,
        'admin/chatReply',
        { userName: user.userName, clientId: clientId(), body },
        { token: support },
      )
      await onB.next(isMessage(body), 10_000)
    }
    const killed = await t.db.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = $1 AND datname = current_database()`,
      [CHAT_LISTENER_NAME],
    )
    expect(killed.rowCount).toBeGreaterThanOrEqual(1)
    // Written while the listeners are down or coming back: the resync delivers it.
    await replyHeardOnB('during')
    // And afterwards, live again through NOTIFY.
    await replyHeardOnB('after')
    const listeners = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
      [CHAT_LISTENER_NAME],
    )
    expect(listeners.rows[0].n).toBeGreaterThanOrEqual(1)
  })

  describe('a session that ends takes its sockets with it', () => {
    const storedByClientId = async (id: string) =>
      (await t.db.pool.query('SELECT 1 FROM chat_messages WHERE client_id = $1', [id])).rowCount

    test('logout closes the session’s socket at once; a send behind it is refused', async () => {
      const user = await registerUser(appA)
      const socket = await open(appA, user)
      // The same user signed in again elsewhere: another session, which stays.
      const again = await call<'user/logining', LoginResult>(
        appA,
        'user/logining',
        await signLogin(user.wallet, Date.now() + 1),
      )
      const otherSession = await open(appA, { token: again.body.data.token } as TestUser)

      const started = Date.now()
      expect((await call(appA, 'user/logout', {}, { token: user.token })).body.code).toBe(200)
      const late = clientId()
      socket.send({ type: 'send', clientId: late, body: 'sent after logout' })
      expect(await within(socket.closed, 2_000, 'socket close after logout')).toEqual({
        code: CHAT_CLOSE.authFailed,
        reason: 'session_expired',
      })
      expect(Date.now() - started).toBeLessThan(2_000)
      expect(socket.frames.filter((f) => f.type === 'ack')).toEqual([])
      for (const f of socket.frames)
        if (f.type === 'error') expect(f).toMatchObject({ reason: 'session_expired' })
      expect(await storedByClientId(late)).toBe(0)

      const kept = clientId()
      otherSession.send({ type: 'send', clientId: kept, body: 'still here' })
      await otherSession.next((f) => f.type === 'ack' && f.clientId === kept)
    })

    test('a send is refused when the revocation is written but not yet announced', async () => {
      const user = await registerUser(appA)
      const socket = await open(appA, user)
      // No announcement at all, as when it is still on its way or the listener is reconnecting.
      await t.db.pool.query('ALTER TABLE sessions DISABLE TRIGGER sessions_revoked_notify')
      try {
        expect((await call(appA, 'user/logout', {}, { token: user.token })).body.code).toBe(200)
      } finally {
        await t.db.pool.query('ALTER TABLE sessions ENABLE TRIGGER sessions_revoked_notify')
      }
      const late = clientId()
      socket.send({ type: 'send', clientId: late, body: 'sent after logout' })
      await socket.next(
        (f) => f.type === 'error' && f.clientId === late && f.reason === 'session_expired',
      )
      expect(await within(socket.closed, 2_000, 'socket close on a refused send')).toEqual({
        code: CHAT_CLOSE.authFailed,
        reason: 'session_expired',
      })
      expect(await storedByClientId(late)).toBe(0)
    })

    test('logout on one instance closes the socket another instance holds', async () => {
      const user = await registerUser(appA)
      const onB = await open(appB, user)
      const before = appB.chatHub.clientCount()
      expect((await call(appA, 'user/logout', {}, { token: user.token })).body.code).toBe(200)
      expect(await within(onB.closed, 2_000, 'socket on B after logout on A')).toEqual({
        code: CHAT_CLOSE.authFailed,
        reason: 'session_expired',
      })
      expect(appB.chatHub.clientCount()).toBe(before - 1)
    })

    test('a login that replaces its signed pair’s session closes that session’s sockets', async () => {
      const user = await registerUser(appA)
      const pair = await signLogin(user.wallet, Date.now() + 1)
      const first = await call<'user/logining', LoginResult>(appA, 'user/logining', pair)
      const onB = await open(appB, { token: first.body.data.token } as TestUser)
      const second = await call<'user/logining', LoginResult>(appA, 'user/logining', pair)
      expect(second.body.code).toBe(200)
      expect(await within(onB.closed, 2_000, 'socket of the replaced session')).toEqual({
        code: CHAT_CLOSE.authFailed,
        reason: 'session_expired',
      })
    })
  })

  test('a user holds at most chatSocketsPerUser sockets; one more is closed with 4429', async () => {
    const user = await registerUser(appA)
    await appA.services.settings.set('chatSocketsPerUser', 2, 'test')
    try {
      const first = await open(appA, user)
      await open(appA, user)
      const third = await TestSocket.open(appA)
      sockets.push(third)
      third.send({ type: 'auth', token: user.token })
      expect(await third.next((f) => f.type === 'error')).toMatchObject({
        reason: 'too_many_connections',
      })
      expect(await third.closed).toEqual({
        code: CHAT_CLOSE.tooMany,
        reason: 'too_many_connections',
      })
      // Another user is not counted against this one; a closed socket frees its place.
      await open(appA, await registerUser(appA))
      await first.close()
      // Its place is given back in the shared count right after the socket closes.
      const held = async () =>
        (
          await t.db.pool.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM limit_slots WHERE key = $1',
            [`chat:${user.id}`],
          )
        ).rows[0]!.n
      for (let i = 0; i < 50 && (await held()) !== 1; i++) await pause(20)
      await open(appA, user)
    } finally {
      await appA.services.settings.set('chatSocketsPerUser', 5, 'test')
    }
  })

  test('thirty sockets at once over two processes: exactly chatSocketsPerUser are admitted', async () => {
    const user = await registerUser(appA)
    const cap = (await appA.services.settings.get()).chatSocketsPerUser
    const opened = await Promise.all(
      Array.from({ length: 30 }, (_, i) => TestSocket.open(i % 2 ? appB : appA)),
    )
    sockets.push(...opened)
    // Every auth frame leaves before any answer: the check and the count cannot be split.
    for (const s of opened) s.send({ type: 'auth', token: user.token })
    const outcomes = await Promise.all(
      opened.map((s) =>
        s.next((f) => f.type === 'ready' || f.type === 'error').then((f) => f.type),
      ),
    )
    expect(outcomes.filter((o) => o === 'ready')).toHaveLength(cap)
    expect(outcomes.filter((o) => o === 'error')).toHaveLength(30 - cap)
    const held = async () =>
      (
        await t.db.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM limit_slots WHERE key = $1',
          [`chat:${user.id}`],
        )
      ).rows[0]!.n
    expect(await held()).toBe(cap)
    // Closing the admitted ones frees their places in the shared count, wherever they were.
    await Promise.all(opened.filter((_, i) => outcomes[i] === 'ready').map((s) => s.close()))
    for (let i = 0; i < 50 && (await held()) !== 0; i++) await pause(20)
    expect(await held()).toBe(0)
    await open(appB, user)
  })

  test('the places of a process that died free themselves when they are not renewed', async () => {
    const user = await registerUser(appA)
    const cap = (await appA.services.settings.get()).chatSocketsPerUser
    // A crashed process's seats: held until a minute ago, never renewed or released.
    for (let i = 0; i < cap; i++)
      await t.db.pool.query(`INSERT INTO limit_slots (key, slot, expires_ms) VALUES ($1, $2, $3)`, [
        `chat:${user.id}`,
        `dead-${i}`,
        Date.now() - 60_000,
      ])
    await open(appA, user)
  })

  test('closed sockets leave the hub', async () => {
    const user = await registerUser(appA)
    const before = appB.chatHub.clientCount()
    const socket = await TestSocket.signedIn(appB, user)
    expect(appB.chatHub.clientCount()).toBe(before + 1)
    await socket.close()
    for (let i = 0; i < 50 && appB.chatHub.clientCount() !== before; i++) await pause(20)
    expect(appB.chatHub.clientCount()).toBe(before)
  })

  test('a server process that shuts down tells its sockets it is going away', async () => {
    const user = await registerUser(appA)
    const appC = await buildTestApp(t.db)
    await appC.listen({ port: 0, host: '127.0.0.1' })
    const socket = await TestSocket.signedIn(appC, user)
    const started = Date.now()
    await appC.close()
    expect(await socket.closed).toEqual({ code: 1001, reason: 'server_shutdown' })
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  test('main/contact: the support e-mail and hours from the settings, without a token', async () => {
    const res = await call<'main/contact', ContactInfo>(appA, 'main/contact')
    expect(res.body.data).toEqual({
      email: 'support@hope.example',
      hoursFrom: '09:00',
      hoursTo: '21:00',
      utcOffsetMinutes: 480,
    })
    await appA.services.settings.set('supportEmail', 'help@hope.example', 'test')
    const changed = await call<'main/contact', ContactInfo>(appA, 'main/contact')
    expect(changed.body.data.email).toBe('help@hope.example')
  })
})
