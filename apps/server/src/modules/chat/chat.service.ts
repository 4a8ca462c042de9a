import type {
  AdminChatList,
  AdminChatMessage,
  ChatHistory,
  ChatMessage,
  ChatSendResult,
  ChatSender,
  ChatUnread,
  ContactInfo,
} from '@hope/api'
import type pg from 'pg'
import { AppError } from '../../lib/app-error.ts'
import type { LimitStore } from '../../lib/limit-store.ts'
import { RateLimiter } from '../../lib/rate-limiter.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { Operator } from '../operator/operator.service.ts'
import { recordAudit } from '../audit/audit.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { findUserByName } from '../user/user.service.ts'
import * as repo from './chat.repository.ts'
import { keysetPage } from './chat.rules.ts'

/** Messages one user may send per minute, counted in each process. */
export const CHAT_MESSAGES_PER_MINUTE = 30

export type MessageRow = repo.MessageRow

export const toChatMessage = (m: MessageRow): ChatMessage => ({
  id: m.id,
  clientId: m.clientId,
  sender: m.sender,
  body: m.body,
  createdAt: m.createdAt.toISOString(),
})

const toAdminMessage = (m: MessageRow): AdminChatMessage => ({
  ...toChatMessage(m),
  operator: m.operator,
})

interface Params {
  clientId: string
  body: string
}
type Page = { beforeId?: number | undefined; pageSize: number }

export function createChatService(deps: {
  pool: pg.Pool
  settings: SettingsService
  now?: () => number
  limits?: LimitStore
}) {
  const { pool, settings } = deps
  const limiter = new RateLimiter(60_000, deps.now, deps.limits)

  /**
   * Stores a message once per (conversation, sender, client id) and tells every server process
   * about it on commit. A resend with the same client id answers the stored message; the same
   * id with another text is refused.
   */
  async function write(
    userId: number,
    sender: ChatSender,
    operator: Operator | null,
    params: Params,
  ): Promise<{ message: MessageRow; replayed: boolean }> {
    const wait = await limiter.hit(
      sender === 'user' ? `chat-user:${userId}` : `chat-op:${operator!.id}`,
      sender === 'user' ? CHAT_MESSAGES_PER_MINUTE : CHAT_MESSAGES_PER_MINUTE * 10,
    )
    if (wait > 0) throw new AppError('rate_limited', { detail: String(Math.ceil(wait / 1000)) })
    return inTransaction(pool, async (q) => {
      const conversationId = await repo.lockConversation(q, userId)
      const id = await repo.insertMessage(q, {
        conversationId,
        sender,
        operatorId: operator?.id ?? null,
        clientId: params.clientId,
        body: params.body,
      })
      if (id === undefined) {
        const stored = await repo.findMessageByClientId(q, conversationId, sender, params.clientId)
        if (!stored || stored.body !== params.body) throw new AppError('idempotency_conflict')
        return { message: stored, replayed: true }
      }
      await repo.recordLastMessage(q, conversationId, id, sender)
      if (operator) {
        await recordAudit(q, {
          operatorId: operator.id,
          action: 'chat_reply',
          targetUserId: userId,
          reason: 'support chat',
          before: null,
          after: { messageId: id },
        })
      }
      await repo.notifyMessage(q, id)
      const [message] = await repo.messagesByIds(q, [id])
      return { message: message!, replayed: false }
    })
  }

  async function history(
    userId: number,
    page: Page,
  ): Promise<{ list: MessageRow[]; nextBeforeId: number | null }> {
    const conversation = await repo.findConversation(pool, userId)
    if (!conversation) return { list: [], nextBeforeId: null }
    const rows = await repo.listMessages(pool, conversation.id, page.beforeId, page.pageSize)
    return keysetPage(rows, page.pageSize)
  }

  async function read(userId: number, side: ChatSender, upToId: number): Promise<ChatUnread> {
    const conversation = await repo.findConversation(pool, userId)
    if (!conversation) return { count: 0 }
    const marker = await repo.advanceReadMarker(pool, conversation.id, side, upToId)
    const other = side === 'user' ? 'operator' : 'user'
    return { count: await repo.countUnread(pool, conversation.id, other, marker) }
  }

  async function userIdOf(userName: string): Promise<number> {
    const user = await findUserByName(pool, userName)
    if (!user) throw new AppError('not_registered')
    return user.id
  }

  return {
    /** How many chat sockets one user may hold open at once, over every process. */
    async socketsPerUser(): Promise<number> {
      return (await settings.get()).chatSocketsPerUser
    },

    /** `chat/history`: the user's own conversation only, newest first. */
    async history(userId: number, page: Page): Promise<ChatHistory> {
      const { list, nextBeforeId } = await history(userId, page)
      return { list: list.map(toChatMessage), nextBeforeId }
    },

    /** `chat/send` and the socket's `send`: a message from the user to support. */
    async send(
      userId: number,
      params: Params,
    ): Promise<{ message: MessageRow; replayed: boolean }> {
      return write(userId, 'user', null, params)
    },

    read: (userId: number, upToId: number) => read(userId, 'user', upToId),

    async unread(userId: number): Promise<ChatUnread> {
      const conversation = await repo.findConversation(pool, userId)
      if (!conversation) return { count: 0 }
      return {
        count: await repo.countUnread(pool, conversation.id, 'operator', conversation.userReadId),
      }
    },

    async contact(): Promise<ContactInfo> {
      const s = await settings.get()
      return {
        email: s.supportEmail,
        hoursFrom: s.supportHoursFrom,
        hoursTo: s.supportHoursTo,
        utcOffsetMinutes: s.supportUtcOffsetMinutes,
      }
    },

    async adminList(params: Page): Promise<AdminChatList> {
      const rows = await repo.listConversations(pool, params.beforeId, params.pageSize)
      const { list, nextBeforeId } = keysetPage(rows, params.pageSize)
      return {
        list: list.map((c) => ({
          userName: c.userName,
          nickName: c.nickName,
          lastMessage: c.lastMessage && toAdminMessage(c.lastMessage),
          unread: c.unread,
        })),
        nextBeforeId,
      }
    },

    async adminHistory(
      params: Page & { userName: string },
    ): Promise<ChatHistory<AdminChatMessage>> {
      const { list, nextBeforeId } = await history(await userIdOf(params.userName), params)
      return { list: list.map(toAdminMessage), nextBeforeId }
    },

    /** `admin/chatReply`: an operator's answer, audited, live on the user's sockets. */
    async adminReply(
      operator: Operator,
      params: Params & { userName: string },
    ): Promise<ChatSendResult<AdminChatMessage>> {
      const userId = await userIdOf(params.userName)
      const { message, replayed } = await write(userId, 'operator', operator, params)
      return { message: toAdminMessage(message), replayed }
    },

    async adminRead(params: { userName: string; upToId: number }) {
      return read(await userIdOf(params.userName), 'operator', params.upToId)
    },

    /** The messages behind NOTIFY payloads, for the socket hub. */
    messagesByIds: (ids: number[]) => repo.messagesByIds(pool, ids),
    /** Messages the hub may have missed while its listening connection was down. */
    messagesSince: (userIds: number[], since: Date) =>
      repo.messagesSince(pool, userIds, since, 100),
    liveSessionIds: (sessionIds: number[]) => repo.liveSessionIds(pool, sessionIds),
  }
}

export type ChatService = ReturnType<typeof createChatService>
