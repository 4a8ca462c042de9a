/**
 * Pure rules of the support chat: paging, read markers, the NOTIFY payload and the listener's
 * reconnect back-off.
 */

/** The PostgreSQL channel every server process listens on; the payload is a message id. */
export const CHAT_NOTIFY_CHANNEL = 'chat_message'

/**
 * Where a revoked user session is announced, the payload its id; migration 0026's trigger on
 * `sessions` sends it, so every way of revoking reaches every server process.
 */
export const SESSION_REVOKED_CHANNEL = 'session_revoked'

/** NOTIFY payloads must stay under 8,000 bytes: a message id is all that travels. */
export function notifyPayload(messageId: number): string {
  return String(messageId)
}

/** The id (message or session) of a NOTIFY payload, or null for anything else. */
export function parseNotifyPayload(payload: string | undefined): number | null {
  if (!payload || !/^\d{1,16}$/.test(payload)) return null
  const id = Number(payload)
  return Number.isSafeInteger(id) && id > 0 ? id : null
}

/**
 * A keyset page from rows read newest first with one row more than asked: the extra row only
 * says that there is an older page, which starts before the oldest row shown.
 */
export function keysetPage<T extends { id: number }>(
  rows: T[],
  pageSize: number,
): { list: T[]; nextBeforeId: number | null } {
  const list = rows.slice(0, pageSize)
  const more = rows.length > pageSize && list.length > 0
  return { list, nextBeforeId: more ? list[list.length - 1]!.id : null }
}

/**
 * A read marker moves forward only, and never past the conversation's last message (a marker
 * ahead of it would hide the next messages before anyone saw them).
 */
export function nextReadMarker(current: number, upToId: number, lastMessageId: number): number {
  return Math.max(current, Math.min(upToId, lastMessageId))
}

/** Doubling back-off for the listening connection: 0.5 s, 1 s, 2 s … capped at `maxMs`. */
export function reconnectDelayMs(attempt: number, baseMs = 500, maxMs = 30_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempt, 20)))
}
