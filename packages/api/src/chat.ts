import { z } from 'zod'
import { intParam } from './common.ts'
import type { Reason } from './errors.ts'

/**
 * The most characters one chat message may hold. It travels in the query string of the
 * `chat/send` fallback, where 1,000 CJK characters are about 9 KB once percent-encoded.
 */
export const CHAT_BODY_MAX = 1_000

export const CHAT_SENDERS = ['user', 'operator'] as const
export type ChatSender = (typeof CHAT_SENDERS)[number]

/** A client's own id for a message: a resend with the same id never makes a second message. */
export const ChatClientId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'client_id')

/** Trimmed, non-empty, at most CHAT_BODY_MAX characters. */
export const ChatBody = z
  .string({ error: 'chat_message_empty' })
  .trim()
  .min(1, 'chat_message_empty')
  .max(CHAT_BODY_MAX, 'chat_message_too_long')

const MessageId = z
  .string()
  .trim()
  .regex(/^\d{1,15}$/, 'message_id')
  .transform(Number)
  .pipe(z.number().int().min(1))

const Username = z.string().trim().min(1).max(64)

/** `chat/history`: newest first, keyset-paged by message id. */
export const ChatHistoryParams = z.object({
  /** Keyset cursor: only messages older than this id (the oldest one already shown). */
  beforeId: MessageId.optional(),
  pageSize: intParam(1, 100).default(30),
})
export type ChatHistoryParams = z.input<typeof ChatHistoryParams>

/** `chat/send`: the fallback when the socket is down; the same `clientId` dedupes a resend. */
export const ChatSendParams = z.object({ clientId: ChatClientId, body: ChatBody })
export type ChatSendParams = z.input<typeof ChatSendParams>

/** `chat/read`: everything up to this message id has been seen. */
export const ChatReadParams = z.object({ upToId: MessageId })
export type ChatReadParams = z.input<typeof ChatReadParams>

/** `admin/chatList`: conversations, the one with the latest message first. */
export const AdminChatListParams = z.object({
  /** Keyset cursor: the `lastMessage.id` of the last conversation already shown. */
  beforeId: MessageId.optional(),
  pageSize: intParam(1, 100).default(30),
})
export type AdminChatListParams = z.input<typeof AdminChatListParams>

export const AdminChatHistoryParams = ChatHistoryParams.extend({ userName: Username })
export type AdminChatHistoryParams = z.input<typeof AdminChatHistoryParams>

export const AdminChatReplyParams = ChatSendParams.extend({ userName: Username })
export type AdminChatReplyParams = z.input<typeof AdminChatReplyParams>

export const AdminChatReadParams = ChatReadParams.extend({ userName: Username })
export type AdminChatReadParams = z.input<typeof AdminChatReadParams>

export interface ChatMessage {
  id: number
  clientId: string
  sender: ChatSender
  body: string
  createdAt: string
}

/** What operators see of a message: who of them wrote it. */
export interface AdminChatMessage extends ChatMessage {
  /** The operator's username for an operator message, else null. */
  operator: string | null
}

export interface ChatHistory<M extends ChatMessage = ChatMessage> {
  /** Newest first. */
  list: M[]
  /** Pass as `beforeId` for the next (older) page; null at the start of the conversation. */
  nextBeforeId: number | null
}

export interface ChatSendResult<M extends ChatMessage = ChatMessage> {
  message: M
  /** True when this `clientId` was already stored: nothing new was written. */
  replayed: boolean
}

export interface ChatUnread {
  /** Messages of the other side after the read marker. */
  count: number
}

export interface AdminChatConversation {
  userName: string
  nickName: string
  lastMessage: AdminChatMessage | null
  /** User messages after the operators' read marker. */
  unread: number
}

export interface AdminChatList {
  list: AdminChatConversation[]
  /** Pass as `beforeId` for the next page; null at the end. */
  nextBeforeId: number | null
}

/** `main/contact`: where and when support answers. */
export interface ContactInfo {
  email: string
  /** Local opening hours, `HH:MM`, in the offset below. */
  hoursFrom: string
  hoursTo: string
  utcOffsetMinutes: number
}

/**
 * The chat socket: `GET /api/chat/ws`, upgraded to a WebSocket. The client authenticates with
 * its first frame, `{ type: 'auth', token }`, within CHAT_AUTH_TIMEOUT_MS (a token in the URL
 * would end up in access logs). Frames are JSON text.
 */
export const CHAT_SOCKET_PATH = '/api/chat/ws'
export const CHAT_AUTH_TIMEOUT_MS = 5_000

/** Close codes the server uses; a client reconnects after any other close. */
export const CHAT_CLOSE = {
  /** The token is missing, unknown or expired (the close reason is the error reason). */
  authFailed: 4401,
  /** No auth frame in time. */
  authTimeout: 4408,
  /** A frame that is not JSON, too big, or not a frame of this protocol. */
  badFrame: 4400,
  /** The user holds as many sockets as allowed (setting `chatSocketsPerUser`); retried later. */
  tooMany: 4429,
} as const

export const ChatClientFrame = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('auth'),
    token: z.string().max(200),
    /** The `lan` header value for translated error messages. */
    lan: z.string().max(10).optional(),
  }),
  z.object({
    type: z.literal('send'),
    clientId: z.string().max(100),
    body: z.string().max(CHAT_BODY_MAX * 4),
  }),
  z.object({ type: z.literal('ping') }),
])
export type ChatClientFrame = z.input<typeof ChatClientFrame>

export type ChatServerFrame =
  /** Authenticated: messages of the conversation now arrive live. */
  | { type: 'ready'; unread: number }
  /** A new message of the conversation, from any sender, device or server process. */
  | { type: 'message'; message: ChatMessage }
  /** The answer to a `send`: the stored message (also when it was a resend). */
  | { type: 'ack'; clientId: string; message: ChatMessage }
  /** A `send` was refused (`clientId` set) or a frame was not understood. */
  | { type: 'error'; clientId?: string; code: number; reason: Reason; msg: string }
  | { type: 'pong' }
