import { randomUUID } from 'node:crypto'
import type { SlotStore } from '../../lib/slot-store.ts'

/** A chat socket's place under its user's cap, from the moment it is counted until released. */
export interface ChatSeat {
  /** Holds the place in the store every process counts in; false when the user is at the cap. */
  hold(): Promise<boolean>
  /** Frees the place (idempotent): this process's count at once, the store's right after. */
  release(): void
}

/** How long a held seat lives without a renewal: a crashed process's seats free themselves. */
export const CHAT_SEAT_TTL_MS = 90_000

/**
 * The chat sockets of each user, counted against `chatSocketsPerUser` in two steps: this
 * process's count is taken synchronously, before anything is awaited (so a burst of sockets
 * cannot all pass one check), then the place is held in the shared store (so every process
 * together admits the cap). Held seats are renewed every third of their lifetime.
 */
export function createChatSeats(deps: {
  store: SlotStore
  now?: () => number
  ttlMs?: number
  log: (msg: string, err?: unknown) => void
}) {
  const { store } = deps
  const now = deps.now ?? Date.now
  const ttlMs = deps.ttlMs ?? CHAT_SEAT_TTL_MS
  const counted = new Map<number, number>()
  const held = new Map<string, string>()
  const keyOf = (userId: number) => `chat:${userId}`

  const renewal = setInterval(() => {
    const slots = [...held].map(([slotId, key]) => ({ key, slotId }))
    store.renew(slots, now(), ttlMs).catch((err) => deps.log('chat: seats not renewed', err))
  }, ttlMs / 3)
  renewal.unref()

  return {
    /** Counts a socket of `userId` in this process; null when it already holds `cap`. */
    take(userId: number, cap: number): ChatSeat | null {
      const mine = counted.get(userId) ?? 0
      if (mine >= cap) return null
      counted.set(userId, mine + 1)
      const key = keyOf(userId)
      const slotId = randomUUID()
      let released = false
      const drop = () =>
        void store.release(key, slotId).catch((err) => deps.log('chat: seat not released', err))
      return {
        async hold() {
          const ok = await store.hold(key, slotId, cap, now(), ttlMs)
          // Released while the store answered (the socket closed): give the place back.
          if (ok && released) drop()
          else if (ok) held.set(slotId, key)
          return ok && !released
        },
        release() {
          if (released) return
          released = true
          const left = (counted.get(userId) ?? 1) - 1
          if (left > 0) counted.set(userId, left)
          else counted.delete(userId)
          if (held.delete(slotId)) drop()
        },
      }
    },

    /** Sockets of `userId` this process counts (held or being opened). */
    countOf: (userId: number): number => counted.get(userId) ?? 0,

    async close(): Promise<void> {
      clearInterval(renewal)
      await store.close()
    },
  }
}

export type ChatSeats = ReturnType<typeof createChatSeats>
