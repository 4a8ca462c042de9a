import {
  CHAT_CLOSE,
  type ChatClientFrame,
  type ChatMessage,
  type ChatSendParams,
  type ChatSendResult,
  type ChatServerFrame,
  type Reason,
} from '@hope/api'
import { ApiError } from '../../lib/api/request.ts'
import { reconnectDelayMs } from './chat.rules.ts'

/** connecting: opening or authenticating; online: `ready`; offline: waiting to reconnect. */
export type ChatStatus = 'connecting' | 'online' | 'offline' | 'signedOut'

export interface ChatRefusal {
  reason: Reason | undefined
  msg: string
}

export interface ChatConnectionOptions {
  url: string
  /** The session token, read at each (re)connect. */
  token: () => string | null
  /** The `lan` value for the server's messages. */
  lan: () => string
  onStatus(status: ChatStatus): void
  /** Authenticated (again): the caller reloads the newest page to fill any gap. */
  onReady(unread: number): void
  /** A stored message: new, an ack, or a resend's answer. Callers dedupe by id. */
  onMessage(message: ChatMessage): void
  /** The server refused a message for good (too long, empty, rate-limited …). */
  onRefused(clientId: string, refusal: ChatRefusal): void
  /** The session is gone (closed with 4401): no reconnect. */
  onSignedOut?(): void
  /** The `chat/send` fallback while the socket is down. */
  sendHttp?: (params: ChatSendParams) => Promise<ChatSendResult>
  createSocket?: (url: string) => WebSocket
  random?: () => number
  /** A ping after this much quiet; no answer within `pongTimeoutMs` drops the socket. */
  heartbeatMs?: number
  pongTimeoutMs?: number
}

/**
 * The chat socket with everything a phone's connection needs: it authenticates with its first
 * frame, reconnects with a growing delay, pings to notice a dead connection, and keeps every
 * message until the server confirmed it. Unconfirmed messages go again after each reconnect
 * (and over HTTP while the socket is down) with the same client id, so the server stores each
 * once whichever copy arrives first.
 */
export class ChatConnection {
  private readonly opts: ChatConnectionOptions
  private socket: WebSocket | null = null
  private ready = false
  private stopped = true
  private attempt = 0
  private retryTimer: ReturnType<typeof setTimeout> | undefined
  private heartbeatTimer: ReturnType<typeof setTimeout> | undefined
  private pongTimer: ReturnType<typeof setTimeout> | undefined
  /** Messages not yet confirmed, in the order they were written. */
  private readonly outbox = new Map<string, ChatSendParams>()
  private readonly inFlightHttp = new Set<string>()

  constructor(opts: ChatConnectionOptions) {
    this.opts = opts
  }

  start(): void {
    if (!this.stopped) return
    this.stopped = false
    this.connect()
  }

  stop(): void {
    this.stopped = true
    clearTimeout(this.retryTimer)
    this.drop()
  }

  /** Reconnects at once (the browser came back online, the screen became visible). */
  wake(): void {
    if (this.stopped || this.socket) return
    clearTimeout(this.retryTimer)
    this.connect()
  }

  /** Queues a message; it goes now if the socket is up, else over HTTP and after reconnect. */
  send(params: ChatSendParams): void {
    this.outbox.set(params.clientId, params)
    if (this.ready) this.frame({ type: 'send', ...params })
    else this.sendOverHttp(params)
  }

  /** Messages written but not confirmed yet. */
  unconfirmed(): ChatSendParams[] {
    return [...this.outbox.values()]
  }

  private connect(): void {
    const token = this.opts.token()
    if (!token) {
      this.opts.onStatus('signedOut')
      return
    }
    this.opts.onStatus('connecting')
    const create = this.opts.createSocket ?? ((url: string) => new WebSocket(url))
    let socket: WebSocket
    try {
      socket = create(this.opts.url)
    } catch {
      this.scheduleReconnect()
      return
    }
    this.socket = socket
    socket.onopen = () => {
      this.frame({ type: 'auth', token, lan: this.opts.lan() })
    }
    socket.onmessage = (event: MessageEvent) => {
      if (this.socket !== socket) return
      this.onFrame(event.data)
    }
    socket.onclose = (event: CloseEvent) => {
      if (this.socket !== socket) return
      this.closed(event.code)
    }
    // An error is always followed by a close.
    socket.onerror = () => {}
  }

  private onFrame(data: unknown): void {
    let f: ChatServerFrame
    try {
      f = JSON.parse(String(data)) as ChatServerFrame
    } catch {
      return
    }
    this.beat()
    switch (f.type) {
      case 'ready':
        this.ready = true
        this.attempt = 0
        this.opts.onStatus('online')
        this.opts.onReady(f.unread)
        for (const params of this.outbox.values()) this.frame({ type: 'send', ...params })
        return
      case 'ack':
        this.confirmed(f.message)
        return
      case 'message':
        if (f.message.sender === 'user') this.confirmed(f.message)
        else this.opts.onMessage(f.message)
        return
      case 'error':
        if (f.clientId && this.outbox.delete(f.clientId))
          this.opts.onRefused(f.clientId, { reason: f.reason, msg: f.msg })
        return
      case 'pong':
        return
    }
  }

  private confirmed(message: ChatMessage): void {
    this.outbox.delete(message.clientId)
    this.opts.onMessage(message)
  }

  private sendOverHttp(params: ChatSendParams): void {
    const { sendHttp } = this.opts
    if (!sendHttp || this.inFlightHttp.has(params.clientId)) return
    this.inFlightHttp.add(params.clientId)
    sendHttp(params)
      .then(({ message }) => {
        if (this.outbox.has(params.clientId)) this.confirmed(message)
      })
      .catch((error: unknown) => {
        // Nothing answered: the message waits for the socket. A refusal is final.
        if (error instanceof ApiError && error.kind === 'http' && error.code !== 401) {
          if (this.outbox.delete(params.clientId))
            this.opts.onRefused(params.clientId, { reason: error.reason, msg: error.msg })
        }
      })
      .finally(() => this.inFlightHttp.delete(params.clientId))
  }

  private frame(f: ChatClientFrame): void {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(f))
  }

  /** Any frame shows the connection is alive: the next ping waits for another quiet spell. */
  private beat(): void {
    clearTimeout(this.pongTimer)
    this.pongTimer = undefined
    clearTimeout(this.heartbeatTimer)
    this.heartbeatTimer = setTimeout(() => {
      this.frame({ type: 'ping' })
      this.pongTimer = setTimeout(() => {
        // No answer: the connection is dead even if the browser has not noticed.
        this.drop()
        this.scheduleReconnect()
      }, this.opts.pongTimeoutMs ?? 10_000)
    }, this.opts.heartbeatMs ?? 25_000)
  }

  private closed(code: number): void {
    this.drop()
    if (code === CHAT_CLOSE.authFailed) {
      this.stopped = true
      this.opts.onStatus('signedOut')
      this.opts.onSignedOut?.()
      return
    }
    this.scheduleReconnect()
  }

  /** Forgets the current socket (closing it if it is still open) and its timers. */
  private drop(): void {
    clearTimeout(this.heartbeatTimer)
    clearTimeout(this.pongTimer)
    this.ready = false
    const socket = this.socket
    this.socket = null
    if (socket) {
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null
      if (socket.readyState === 0 || socket.readyState === 1) socket.close()
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped) return
    this.opts.onStatus('offline')
    for (const params of this.outbox.values()) this.sendOverHttp(params)
    clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(
      () => this.connect(),
      reconnectDelayMs(this.attempt++, this.opts.random),
    )
  }
}
