import { CHAT_SOCKET_PATH, type ChatMessage } from '@hope/api'

/** A message the user wrote that the server has not confirmed yet. */
export interface PendingMessage {
  clientId: string
  body: string
  /** Set when the server refused it (the translated message): it is not sent again by itself. */
  failed?: string
}

/**
 * Messages by id, oldest first, each once: a message may arrive from a history page, the
 * socket, an ack and a resend all at once.
 */
export function mergeMessages(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return current
  const byId = new Map(current.map((m) => [m.id, m]))
  let changed = false
  for (const m of incoming) {
    if (byId.has(m.id)) continue
    byId.set(m.id, m)
    changed = true
  }
  if (!changed) return current
  return [...byId.values()].sort((a, b) => a.id - b.id)
}

/** Pending messages the stored ones confirm (the user's, by client id) are pending no more. */
export function settlePending(pending: PendingMessage[], stored: ChatMessage[]): PendingMessage[] {
  const confirmed = new Set(stored.filter((m) => m.sender === 'user').map((m) => m.clientId))
  if (confirmed.size === 0) return pending
  const left = pending.filter((p) => !confirmed.has(p.clientId))
  return left.length === pending.length ? pending : left
}

/** The newest support message, for the read marker; 0 when there is none. */
export function latestOperatorMessageId(messages: ChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i]!.sender === 'operator') return messages[i]!.id
  return 0
}

/**
 * The delay before reconnect number `attempt` (from 0): 1 s doubling up to 30 s, spread by
 * `random` over its upper half so that clients dropped together do not return together.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const full = Math.min(30_000, 1_000 * 2 ** Math.min(Math.max(attempt, 0), 15))
  return Math.round(full * (0.5 + 0.5 * random()))
}

/** The chat socket's address on the page's own host. */
export function chatSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${CHAT_SOCKET_PATH}`
}
