import type { ChatMessage, ChatSendParams, ChatSendResult } from '@hope/api'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { ApiError } from '../../lib/api/request.ts'
import { FakeWebSocket } from '../../test/fake-websocket.ts'
import { ChatConnection, type ChatConnectionOptions, type ChatStatus } from './chat-connection.ts'

const stored = (id: number, clientId: string, body = 'hi'): ChatMessage => ({
  id,
  clientId,
  sender: 'user',
  body,
  createdAt: '2026-03-01T08:00:00Z',
})

function setup(overrides: Partial<ChatConnectionOptions> = {}) {
  const sockets: FakeWebSocket[] = []
  const statuses: ChatStatus[] = []
  const messages: ChatMessage[] = []
  const refused: string[] = []
  const ready = vi.fn()
  const signedOut = vi.fn()
  const connection = new ChatConnection({
    url: 'ws://test/api/chat/ws',
    token: () => 'tok',
    lan: () => 'zh_CN',
    onStatus: (s) => statuses.push(s),
    onReady: ready,
    onMessage: (m) => messages.push(m),
    onRefused: (clientId) => refused.push(clientId),
    onSignedOut: signedOut,
    createSocket: (url) => {
      const s = new FakeWebSocket(url)
      sockets.push(s)
      return s as unknown as WebSocket
    },
    random: () => 1,
    heartbeatMs: 25_000,
    pongTimeoutMs: 10_000,
    ...overrides,
  })
  const latest = () => sockets.at(-1)!
  /** Opens the newest socket and lets the server answer its auth frame. */
  const online = (unread = 0) => {
    latest().open()
    latest().receive({ type: 'ready', unread })
  }
  return { connection, sockets, statuses, messages, refused, ready, signedOut, latest, online }
}

describe('chat connection', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  test('authenticates with its first frame, never with the token in the address', () => {
    const { connection, latest, online, statuses, ready } = setup()
    connection.start()
    expect(latest().url).toBe('ws://test/api/chat/ws')
    latest().open()
    expect(latest().sent).toEqual([{ type: 'auth', token: 'tok', lan: 'zh_CN' }])
    online(3)
    expect(ready).toHaveBeenCalledWith(3)
    expect(statuses).toEqual(['connecting', 'online'])
  })

  test('an ack confirms a message; it is not sent again after a reconnect', () => {
    const { connection, latest, online, messages, sockets } = setup()
    connection.start()
    online()
    connection.send({ clientId: 'c1', body: 'hi' })
    expect(latest().sentOfType('send')).toEqual([{ type: 'send', clientId: 'c1', body: 'hi' }])
    latest().receive({ type: 'ack', clientId: 'c1', message: stored(7, 'c1') })
    expect(messages).toEqual([stored(7, 'c1')])
    expect(connection.unconfirmed()).toEqual([])
    latest().drop()
    vi.advanceTimersByTime(1000)
    expect(sockets).toHaveLength(2)
    online()
    expect(latest().sentOfType('send')).toEqual([])
  })

  test('unconfirmed messages go again, in order and with the same client ids, after each reconnect', () => {
    const { connection, latest, online, statuses, sockets } = setup()
    connection.start()
    online()
    connection.send({ clientId: 'c1', body: 'one' })
    connection.send({ clientId: 'c2', body: 'two' })
    latest().drop()
    expect(statuses.at(-1)).toBe('offline')
    // Written while offline: it waits too.
    connection.send({ clientId: 'c3', body: 'three' })
    vi.advanceTimersByTime(999)
    expect(sockets).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(sockets).toHaveLength(2)
    // The second try fails as well: the delay doubles.
    latest().drop()
    vi.advanceTimersByTime(1999)
    expect(sockets).toHaveLength(2)
    vi.advanceTimersByTime(1)
    online()
    expect(
      latest()
        .sentOfType('send')
        .map((f) => f.clientId),
    ).toEqual(['c1', 'c2', 'c3'])
    // The server stores each once; its answer to a resend is the stored message.
    latest().receive({ type: 'ack', clientId: 'c2', message: stored(9, 'c2', 'two') })
    latest().receive({ type: 'message', message: stored(8, 'c1', 'one') })
    expect(connection.unconfirmed().map((p) => p.clientId)).toEqual(['c3'])
  })

  test('after a successful reconnect the delay starts from a second again', () => {
    const { connection, latest, online, sockets } = setup()
    connection.start()
    latest().drop()
    vi.advanceTimersByTime(1000)
    latest().drop()
    vi.advanceTimersByTime(2000)
    online()
    latest().drop()
    vi.advanceTimersByTime(1000)
    expect(sockets).toHaveLength(4)
  })

  test('a close for a lost session stops for good', () => {
    const { connection, latest, statuses, signedOut, sockets } = setup()
    connection.start()
    latest().open()
    latest().drop(4401, 'session_expired')
    expect(statuses.at(-1)).toBe('signedOut')
    expect(signedOut).toHaveBeenCalled()
    vi.advanceTimersByTime(60_000)
    expect(sockets).toHaveLength(1)
  })

  test('a quiet connection is pinged, and dropped when no answer comes', () => {
    const { connection, latest, online, sockets } = setup()
    connection.start()
    online()
    vi.advanceTimersByTime(25_000)
    expect(latest().sentOfType('ping')).toHaveLength(1)
    latest().receive({ type: 'pong' })
    vi.advanceTimersByTime(25_000)
    expect(latest().sentOfType('ping')).toHaveLength(2)
    vi.advanceTimersByTime(10_000)
    expect(latest().readyState).toBe(FakeWebSocket.CLOSED)
    vi.advanceTimersByTime(1000)
    expect(sockets).toHaveLength(2)
  })

  test('while the socket is down, a message goes over HTTP with the same client id', async () => {
    const sendHttp = vi.fn(async (p: ChatSendParams): Promise<ChatSendResult> => ({
      message: stored(11, p.clientId, p.body),
      replayed: false,
    }))
    const { connection, latest, online, messages } = setup({ sendHttp })
    connection.start()
    connection.send({ clientId: 'c1', body: 'hello' })
    expect(sendHttp).toHaveBeenCalledWith({ clientId: 'c1', body: 'hello' })
    await vi.waitFor(() => expect(messages).toEqual([stored(11, 'c1', 'hello')]))
    online()
    expect(latest().sentOfType('send')).toEqual([])
  })

  test('an HTTP refusal is final; no answer at all leaves the message for the socket', async () => {
    const sendHttp = vi.fn(async (p: ChatSendParams): Promise<ChatSendResult> => {
      if (p.clientId === 'bad')
        throw new ApiError({
          code: 400,
          reason: 'chat_message_too_long',
          msg: 'too long',
          kind: 'http',
        })
      throw new ApiError({ code: 0, msg: '', kind: 'network' })
    })
    const { connection, latest, online, refused } = setup({ sendHttp })
    connection.start()
    connection.send({ clientId: 'bad', body: 'x' })
    connection.send({ clientId: 'lost', body: 'y' })
    await vi.waitFor(() => expect(refused).toEqual(['bad']))
    online()
    expect(
      latest()
        .sentOfType('send')
        .map((f) => f.clientId),
    ).toEqual(['lost'])
  })

  test('a refusal on the socket is reported once and not sent again', () => {
    const { connection, latest, online, refused } = setup()
    connection.start()
    online()
    connection.send({ clientId: 'c1', body: 'x' })
    const refusal = {
      type: 'error',
      clientId: 'c1',
      code: 429,
      reason: 'rate_limited',
      msg: 'slow',
    }
    latest().receive(refusal)
    latest().receive(refusal)
    expect(refused).toEqual(['c1'])
    expect(connection.unconfirmed()).toEqual([])
  })

  test('stop closes the socket and ends the reconnects', () => {
    const { connection, latest, online, sockets } = setup()
    connection.start()
    online()
    connection.stop()
    expect(latest().readyState).toBe(FakeWebSocket.CLOSED)
    vi.advanceTimersByTime(60_000)
    expect(sockets).toHaveLength(1)
  })
})
