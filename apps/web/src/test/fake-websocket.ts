import { vi } from 'vitest'

/**
 * A WebSocket the test drives by hand: it records what the app sends, and the test opens it,
 * answers with server frames and closes it. `installFakeWebSocket` puts it in place of the
 * browser's and keeps every instance, the newest last.
 */
export class FakeWebSocket {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static readonly CLOSING = 2
  static readonly CLOSED = 3

  readonly url: string
  readyState = FakeWebSocket.CONNECTING
  /** Frames the app sent, parsed. */
  readonly sent: Record<string, unknown>[] = []
  onopen: ((event: Event) => void) | null = null
  onmessage: ((event: MessageEvent) => void) | null = null
  onclose: ((event: CloseEvent) => void) | null = null
  onerror: ((event: Event) => void) | null = null

  constructor(url: string) {
    this.url = url
  }

  send(data: string): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('socket not open')
    this.sent.push(JSON.parse(data) as Record<string, unknown>)
  }

  close(): void {
    if (this.readyState === FakeWebSocket.CLOSED) return
    this.readyState = FakeWebSocket.CLOSED
  }

  /** The server accepted the connection. */
  open(): void {
    this.readyState = FakeWebSocket.OPEN
    this.onopen?.(new Event('open'))
  }

  /** A frame from the server. */
  receive(frame: unknown): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(frame) }))
  }

  /** The connection ended (the server closed it, or the network dropped it). */
  drop(code = 1006, reason = ''): void {
    this.readyState = FakeWebSocket.CLOSED
    this.onclose?.(new CloseEvent('close', { code, reason }))
  }

  sentOfType(type: string): Record<string, unknown>[] {
    return this.sent.filter((f) => f.type === type)
  }
}

export function installFakeWebSocket() {
  const sockets: FakeWebSocket[] = []
  class Recorded extends FakeWebSocket {
    constructor(url: string) {
      super(url)
      sockets.push(this)
    }
  }
  vi.stubGlobal('WebSocket', Recorded)
  return {
    sockets,
    latest: (): FakeWebSocket => {
      const s = sockets.at(-1)
      if (!s) throw new Error('no socket opened')
      return s
    },
  }
}
