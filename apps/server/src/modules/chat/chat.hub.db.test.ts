import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import type { WebSocket } from 'ws'
import { databaseTargets, registerUser, useTestApp } from '../../testing/index.ts'
import { createChatHub, type ChatClient, type ChatHub } from './chat.hub.ts'

/** The little of a ws socket the hub uses, recording what it did. */
function fakeSocket() {
  const socket = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: 0,
    sent: [] as string[],
    pings: 0,
    closedWith: null as null | { code: number; reason: string },
    terminated: false,
    send(data: string) {
      socket.sent.push(data)
    },
    ping() {
      socket.pings += 1
    },
    close(code: number, reason: string) {
      socket.closedWith = { code, reason }
      socket.readyState = 3
    },
    terminate() {
      socket.terminated = true
      socket.readyState = 3
    },
  }
  return socket
}

describe.each(databaseTargets())('chat hub on $name', (target) => {
  const t = useTestApp(target)
  let hub: ChatHub

  beforeAll(async () => {
    hub = createChatHub({
      chat: t.app.services.chat,
      connection: t.db.pool.options,
      log: t.app.log,
      heartbeatMs: 50,
      sessionCheckMs: 50,
    })
  })
  afterAll(async () => {
    await hub?.close()
  })

  const join = async (user: { id: number }, sessionId: number) => {
    const socket = fakeSocket()
    const client: ChatClient = {
      socket: socket as unknown as WebSocket,
      userId: user.id,
      sessionId,
      alive: true,
    }
    await hub.add(client)
    return { socket, client }
  }
  const sessionOf = async (token: string) =>
    (await t.app.services.users.authenticate(token)).sessionId

  test('a socket that stops answering pings is cut off; one that answers stays', async () => {
    const user = await registerUser(t.app)
    const session = await sessionOf(user.token)
    const quiet = await join(user, session)
    const lively = await join(user, session)
    const keepAlive = setInterval(() => (lively.client.alive = true), 10)
    try {
      await vi.waitFor(() => expect(quiet.socket.terminated).toBe(true), { timeout: 2_000 })
      expect(quiet.socket.pings).toBeGreaterThanOrEqual(1)
      expect(lively.socket.terminated).toBe(false)
    } finally {
      clearInterval(keepAlive)
      hub.remove(quiet.client)
      hub.remove(lively.client)
    }
  })

  test('a socket whose session was revoked is closed with 4401', async () => {
    const user = await registerUser(t.app)
    const other = await registerUser(t.app)
    const gone = await join(user, await sessionOf(user.token))
    const stays = await join(other, await sessionOf(other.token))
    const keepAlive = setInterval(() => {
      gone.client.alive = true
      stays.client.alive = true
    }, 10)
    try {
      expect((await t.as(user, 'user/logout')).body.code).toBe(200)
      await vi.waitFor(
        () => expect(gone.socket.closedWith).toEqual({ code: 4401, reason: 'session_expired' }),
        { timeout: 2_000 },
      )
      expect(stays.socket.closedWith).toBeNull()
    } finally {
      clearInterval(keepAlive)
      hub.remove(gone.client)
      hub.remove(stays.client)
    }
  })

  test('a socket joining with a session revoked meanwhile is closed at once', async () => {
    const user = await registerUser(t.app)
    const session = await sessionOf(user.token)
    expect((await t.as(user, 'user/logout')).body.code).toBe(200)
    const before = hub.clientCount()
    const late = await join(user, session)
    expect(late.socket.closedWith).toEqual({ code: 4401, reason: 'session_expired' })
    expect(hub.clientCount()).toBe(before)
  })

  test('messages go only to the sockets of the conversation’s user', async () => {
    const user = await registerUser(t.app)
    const other = await registerUser(t.app)
    const mine = await join(user, await sessionOf(user.token))
    const theirs = await join(other, await sessionOf(other.token))
    const keepAlive = setInterval(() => {
      mine.client.alive = true
      theirs.client.alive = true
    }, 10)
    try {
      await t.as(user, 'chat/send', { clientId: 'hub-test-1', body: 'ping me' })
      await vi.waitFor(() => expect(mine.socket.sent.join()).toContain('ping me'), {
        timeout: 2_000,
      })
      expect(theirs.socket.sent).toEqual([])
    } finally {
      clearInterval(keepAlive)
      hub.remove(mine.client)
      hub.remove(theirs.client)
    }
  })
})
