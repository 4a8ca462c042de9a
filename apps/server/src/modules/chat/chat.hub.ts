import { CHAT_CLOSE, type ChatServerFrame } from '@hope/api'
import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'
import type { WebSocket } from 'ws'
import {
  CHAT_NOTIFY_CHANNEL,
  SESSION_REVOKED_CHANNEL,
  parseNotifyPayload,
  reconnectDelayMs,
} from './chat.rules.ts'
import { toChatMessage, type ChatService, type MessageRow } from './chat.service.ts'

/** An authenticated chat socket of this process. */
export interface ChatClient {
  socket: WebSocket
  userId: number
  sessionId: number
  /** Cleared at each heartbeat, set again by the socket's pong; a client still clear is dead. */
  alive: boolean
  /**
   * Frames held back until the socket's `ready` frame is out (set while it is being made): a
   * message notified meanwhile never reaches the client before `ready`.
   */
  held?: string[] | undefined
}

/** Frames a client may have held back before its `ready`; past that the oldest go. */
const MAX_HELD_FRAMES = 100

export interface ChatHubOptions {
  chat: ChatService
  /** How the dedicated listening connection reaches PostgreSQL (the pool's own settings). */
  connection: pg.ClientConfig
  log: FastifyBaseLogger
  heartbeatMs?: number
  sessionCheckMs?: number
}

/** A socket that lets this much pile up unread is dropped; it reconnects and reloads. */
const MAX_BUFFERED_BYTES = 1 << 20
/** Messages written shortly before the listener dropped may have committed in the gap. */
const RESYNC_MARGIN_MS = 30_000
const LISTENER_CHECK_TIMEOUT_MS = 10_000
/** How the listening connections show in pg_stat_activity. */
export const CHAT_LISTENER_NAME = 'hope-chat-listener'

/**
 * The sockets of one server process and its one PostgreSQL listening connection. Every
 * message, whichever process wrote it, is announced by NOTIFY with its id; each process reads
 * the messages it has sockets for and sends them on. When the listening connection drops, it
 * comes back with a growing delay and then sends what was written since it dropped (clients
 * tell messages apart by id, so a message sent twice shows once). A revoked session is announced
 * the same way, and every process closes that session's sockets at once.
 */
export function createChatHub(opts: ChatHubOptions) {
  const { chat, log } = opts
  const clients = new Map<number, Set<ChatClient>>()
  const bySession = new Map<number, Set<ChatClient>>()
  let listener: pg.Client | null = null
  let starting: Promise<void> | null = null
  let downSince: Date | null = null
  let attempt = 0
  let retryTimer: NodeJS.Timeout | null = null
  let closed = false
  const pendingIds = new Set<number>()
  let flushScheduled = false

  function send(client: ChatClient, frame: ChatServerFrame | string): void {
    if (client.held) {
      client.held.push(typeof frame === 'string' ? frame : JSON.stringify(frame))
      if (client.held.length > MAX_HELD_FRAMES) client.held.shift()
      return
    }
    if (client.socket.readyState !== client.socket.OPEN) return
    if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      client.socket.terminate()
      return
    }
    client.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  function deliver(rows: MessageRow[]): void {
    for (const row of rows) {
      const targets = clients.get(row.userId)
      if (!targets) continue
      const frame = JSON.stringify({
        type: 'message',
        message: toChatMessage(row),
      } satisfies ChatServerFrame)
      for (const client of targets) send(client, frame)
    }
  }

  async function flush(): Promise<void> {
    flushScheduled = false
    const ids = [...pendingIds]
    pendingIds.clear()
    if (ids.length === 0 || clients.size === 0) return
    try {
      deliver(await chat.messagesByIds(ids))
    } catch (err) {
      log.warn({ err }, 'chat: could not read notified messages')
    }
  }

  function remove(client: ChatClient): void {
    for (const [map, key] of [
      [clients, client.userId],
      [bySession, client.sessionId],
    ] as const) {
      const set = map.get(key)
      if (!set) continue
      set.delete(client)
      if (set.size === 0) map.delete(key)
    }
  }

  /** Leaves the hub at once (nothing more is delivered) and tells the client why. */
  function closeExpired(client: ChatClient): void {
    remove(client)
    client.socket.close(CHAT_CLOSE.authFailed, 'session_expired')
  }

  /** Closes those of `targets` whose session is no longer live. */
  async function closeRevoked(targets: ChatClient[]): Promise<void> {
    if (targets.length === 0) return
    const live = await chat.liveSessionIds([...new Set(targets.map((c) => c.sessionId))])
    for (const client of targets) if (!live.has(client.sessionId)) closeExpired(client)
  }

  const allClients = () => [...clients.values()].flatMap((set) => [...set])

  function onNotification(n: pg.Notification): void {
    if (n.channel === SESSION_REVOKED_CHANNEL) {
      const sessionId = parseNotifyPayload(n.payload)
      const targets = sessionId === null ? undefined : bySession.get(sessionId)
      if (targets) for (const client of [...targets]) closeExpired(client)
      return
    }
    if (n.channel !== CHAT_NOTIFY_CHANNEL) return
    const id = parseNotifyPayload(n.payload)
    if (id === null) return
    pendingIds.add(id)
    if (!flushScheduled) {
      flushScheduled = true
      setImmediate(() => void flush())
    }
  }

  async function resync(): Promise<void> {
    if (!downSince) return
    const since = new Date(downSince.getTime() - RESYNC_MARGIN_MS)
    downSince = null
    if (clients.size === 0) return
    // Revocations announced while the listener was away were not heard.
    await closeRevoked(allClients()).catch((err: unknown) =>
      log.warn({ err }, 'chat: session check after a listener gap failed'),
    )
    try {
      deliver(await chat.messagesSince([...clients.keys()], since))
    } catch (err) {
      log.warn({ err }, 'chat: resync after a listener gap failed')
    }
  }

  function lost(client: pg.Client, err?: Error): void {
    if (client !== listener) return
    listener = null
    client.removeAllListeners('notification')
    void client.end().catch(() => {})
    if (closed) return
    downSince ??= new Date()
    log.warn({ err }, 'chat: listening connection lost; reconnecting')
    scheduleReconnect()
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer) return
    retryTimer = setTimeout(() => {
      retryTimer = null
      if (listener || closed) return
      start().catch((err: unknown) => {
        attempt += 1
        log.warn({ err, attempt }, 'chat: listener reconnect failed')
        scheduleReconnect()
      })
    }, reconnectDelayMs(attempt))
    retryTimer.unref()
  }

  async function connect(): Promise<void> {
    const client = new pg.Client({
      ...opts.connection,
      keepAlive: true,
      application_name: CHAT_LISTENER_NAME,
    })
    // An error on a connection that is already being replaced must not crash the process.
    client.on('error', (err) => lost(client, err))
    client.on('end', () => lost(client))
    client.on('notification', onNotification)
    try {
      await client.connect()
      await client.query(`LISTEN ${CHAT_NOTIFY_CHANNEL}; LISTEN ${SESSION_REVOKED_CHANNEL}`)
    } catch (err) {
      client.removeAllListeners('notification')
      void client.end().catch(() => {})
      throw err
    }
    if (closed) {
      await client.end().catch(() => {})
      return
    }
    listener = client
    attempt = 0
    void resync()
  }

  /** Connects the listener once, however many callers wait for it. */
  function start(): Promise<void> {
    starting ??= connect().finally(() => {
      starting = null
    })
    return starting
  }

  /** Checks that a quiet listening connection still answers; a dead one is replaced. */
  async function checkListener(): Promise<void> {
    const client = listener
    if (!client) return
    let timer: NodeJS.Timeout | undefined
    try {
      await Promise.race([
        client.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('listener check timed out')),
            LISTENER_CHECK_TIMEOUT_MS,
          )
        }),
      ])
    } catch (err) {
      lost(client, err as Error)
    } finally {
      clearTimeout(timer)
    }
  }

  const heartbeat = setInterval(() => {
    for (const set of clients.values()) {
      for (const client of set) {
        if (!client.alive) {
          client.socket.terminate()
          continue
        }
        client.alive = false
        client.socket.ping()
      }
    }
    void checkListener()
  }, opts.heartbeatMs ?? 30_000)
  heartbeat.unref()

  /** An expired session loses its sockets too (a revoked one is closed on its announcement). */
  const sessionCheck = setInterval(() => {
    closeRevoked(allClients()).catch((err: unknown) =>
      log.warn({ err }, 'chat: session check failed'),
    )
  }, opts.sessionCheckMs ?? 60_000)
  sessionCheck.unref()

  return {
    /**
     * Starts receiving the user's messages on this socket; resolves once the listener is
     * connected, so nothing written after `ready` is missed. A session revoked before the
     * socket joined (its announcement found no socket here) closes the socket at once.
     */
    async add(client: ChatClient): Promise<void> {
      if (!listener) await start()
      for (const [map, key] of [
        [clients, client.userId],
        [bySession, client.sessionId],
      ] as const) {
        let set = map.get(key)
        if (!set) map.set(key, (set = new Set()))
        set.add(client)
      }
      let live: Set<number>
      try {
        live = await chat.liveSessionIds([client.sessionId])
      } catch (err) {
        remove(client)
        throw err
      }
      if (!live.has(client.sessionId)) closeExpired(client)
    },

    remove,

    send,

    /** The sockets `userId` holds in this process. */
    socketsOf(userId: number): number {
      return clients.get(userId)?.size ?? 0
    },

    /** Sockets of this process, for tests and metrics. */
    clientCount(): number {
      let n = 0
      for (const set of clients.values()) n += set.size
      return n
    },

    /** Stops the timers and the listener and tells every socket that the server is leaving. */
    async close(): Promise<void> {
      closed = true
      clearInterval(heartbeat)
      clearInterval(sessionCheck)
      if (retryTimer) clearTimeout(retryTimer)
      for (const set of clients.values())
        for (const client of set) client.socket.close(1001, 'server_shutdown')
      clients.clear()
      bySession.clear()
      const client = listener
      listener = null
      await starting?.catch(() => {})
      if (client) {
        client.removeAllListeners('notification')
        await client.end().catch(() => {})
      }
    },
  }
}

export type ChatHub = ReturnType<typeof createChatHub>
