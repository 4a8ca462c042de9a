import type { ChatSender } from '@hope/api'
import type pg from 'pg'
import { CHAT_NOTIFY_CHANNEL, notifyPayload } from './chat.rules.ts'

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>

export interface MessageRow {
  id: number
  /** The user whose conversation holds the message. */
  userId: number
  sender: ChatSender
  /** The operator's username for an operator message. */
  operator: string | null
  clientId: string
  body: string
  createdAt: Date
}

export interface ConversationRow {
  id: number
  lastMessageId: number
  userReadId: number
  operatorReadId: number
}

interface RawMessage {
  id: string
  user_id: string
  sender: ChatSender
  operator: string | null
  client_id: string
  body: string
  created_at: Date
}

const MESSAGE_COLUMNS = `m.id, c.user_id, m.sender, o.username AS operator, m.client_id, m.body, m.created_at`
const MESSAGE_FROM = `chat_messages m
  JOIN chat_conversations c ON c.id = m.conversation_id
  LEFT JOIN operators o ON o.id = m.operator_id`

const toMessage = (r: RawMessage): MessageRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  sender: r.sender,
  operator: r.operator,
  clientId: r.client_id,
  body: r.body,
  createdAt: r.created_at,
})

/** The user's conversation, made on first use, its row locked until the transaction ends. */
export async function lockConversation(q: Queryable, userId: number): Promise<number> {
  const res = await q.query<{ id: string }>(
    `INSERT INTO chat_conversations (user_id) VALUES ($1)
     ON CONFLICT (user_id) DO UPDATE SET user_id = EXCLUDED.user_id
     RETURNING id`,
    [userId],
  )
  return Number(res.rows[0]!.id)
}

export async function findConversation(
  q: Queryable,
  userId: number,
): Promise<ConversationRow | undefined> {
  const res = await q.query<{ id: string; last: string; user_read: string; op_read: string }>(
    `SELECT id, coalesce(last_message_id, 0) AS last, user_read_id AS user_read,
            operator_read_id AS op_read
     FROM chat_conversations WHERE user_id = $1`,
    [userId],
  )
  const r = res.rows[0]
  return (
    r && {
      id: Number(r.id),
      lastMessageId: Number(r.last),
      userReadId: Number(r.user_read),
      operatorReadId: Number(r.op_read),
    }
  )
}

/** Writes a message unless its client id is already stored for that sender; undefined then. */
export async function insertMessage(
  q: Queryable,
  m: {
    conversationId: number
    sender: ChatSender
    operatorId: number | null
    clientId: string
    body: string
  },
): Promise<number | undefined> {
  const res = await q.query<{ id: string }>(
    `INSERT INTO chat_messages (conversation_id, sender, operator_id, client_id, body)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (conversation_id, sender, client_id) DO NOTHING
     RETURNING id`,
    [m.conversationId, m.sender, m.operatorId, m.clientId, m.body],
  )
  const row = res.rows[0]
  return row && Number(row.id)
}

export async function findMessageByClientId(
  q: Queryable,
  conversationId: number,
  sender: ChatSender,
  clientId: string,
): Promise<MessageRow | undefined> {
  const res = await q.query<RawMessage>(
    `SELECT ${MESSAGE_COLUMNS} FROM ${MESSAGE_FROM}
     WHERE m.conversation_id = $1 AND m.sender = $2 AND m.client_id = $3`,
    [conversationId, sender, clientId],
  )
  const r = res.rows[0]
  return r && toMessage(r)
}

/**
 * Records the conversation's newest message; the sender has seen everything up to it, so their
 * own read marker moves there too.
 */
export async function recordLastMessage(
  q: Queryable,
  conversationId: number,
  messageId: number,
  sender: ChatSender,
): Promise<void> {
  const marker = sender === 'user' ? 'user_read_id' : 'operator_read_id'
  await q.query(
    `UPDATE chat_conversations
     SET last_message_id = greatest(coalesce(last_message_id, 0), $2),
         ${marker} = greatest(${marker}, $2)
     WHERE id = $1`,
    [conversationId, messageId],
  )
}

/** Tells every server process about a message; delivered when the transaction commits. */
export async function notifyMessage(q: Queryable, messageId: number): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [CHAT_NOTIFY_CHANNEL, notifyPayload(messageId)])
}

/** One page of a conversation, newest first, with one row more than asked (see keysetPage). */
export async function listMessages(
  q: Queryable,
  conversationId: number,
  beforeId: number | undefined,
  pageSize: number,
): Promise<MessageRow[]> {
  const res = await q.query<RawMessage>(
    `SELECT ${MESSAGE_COLUMNS} FROM ${MESSAGE_FROM}
     WHERE m.conversation_id = $1 AND ($2::bigint IS NULL OR m.id < $2)
     ORDER BY m.id DESC LIMIT $3`,
    [conversationId, beforeId ?? null, pageSize + 1],
  )
  return res.rows.map(toMessage)
}

/** The other side's messages after a read marker. */
export async function countUnread(
  q: Queryable,
  conversationId: number,
  from: ChatSender,
  afterId: number,
): Promise<number> {
  const res = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM chat_messages
     WHERE conversation_id = $1 AND sender = $2 AND id > $3`,
    [conversationId, from, afterId],
  )
  return res.rows[0]!.n
}

/** Moves one side's read marker forward (see nextReadMarker); answers the new marker. */
export async function advanceReadMarker(
  q: Queryable,
  conversationId: number,
  side: ChatSender,
  upToId: number,
): Promise<number> {
  const marker = side === 'user' ? 'user_read_id' : 'operator_read_id'
  const res = await q.query<{ marker: string }>(
    `UPDATE chat_conversations
     SET ${marker} = greatest(${marker}, least($2, coalesce(last_message_id, 0)))
     WHERE id = $1 RETURNING ${marker} AS marker`,
    [conversationId, upToId],
  )
  return Number(res.rows[0]!.marker)
}

/** The messages behind NOTIFY payloads, with whose conversation each is in. */
export async function messagesByIds(q: Queryable, ids: number[]): Promise<MessageRow[]> {
  const res = await q.query<RawMessage>(
    `SELECT ${MESSAGE_COLUMNS} FROM ${MESSAGE_FROM} WHERE m.id = ANY($1::bigint[]) ORDER BY m.id`,
    [ids],
  )
  return res.rows.map(toMessage)
}

/** Messages of these users' conversations written since a moment (a listener gap). */
export async function messagesSince(
  q: Queryable,
  userIds: number[],
  since: Date,
  limitPerConversation: number,
): Promise<MessageRow[]> {
  const res = await q.query<RawMessage>(
    `SELECT ${MESSAGE_COLUMNS}
     FROM chat_conversations c
     CROSS JOIN LATERAL (
       SELECT * FROM chat_messages x
       WHERE x.conversation_id = c.id AND x.created_at >= $2
       ORDER BY x.id DESC LIMIT $3
     ) m
     LEFT JOIN operators o ON o.id = m.operator_id
     WHERE c.user_id = ANY($1::bigint[])
     ORDER BY m.id`,
    [userIds, since, limitPerConversation],
  )
  return res.rows.map(toMessage)
}

export interface ConversationSummaryRow {
  userName: string
  nickName: string
  lastMessage: MessageRow | null
  unread: number
}

/** Conversations with a message, the latest first, with one row more than asked. */
export async function listConversations(
  q: Queryable,
  beforeId: number | undefined,
  pageSize: number,
): Promise<(ConversationSummaryRow & { id: number })[]> {
  const res = await q.query<
    RawMessage & { user_name: string; nick_name: string; unread: number; last_id: string }
  >(
    `SELECT c.last_message_id AS last_id, u.user_name, u.nick_name, ${MESSAGE_COLUMNS},
            (SELECT count(*)::int FROM chat_messages x
             WHERE x.conversation_id = c.id AND x.sender = 'user' AND x.id > c.operator_read_id
            ) AS unread
     FROM chat_conversations c
     JOIN users u ON u.id = c.user_id
     JOIN chat_messages m ON m.id = c.last_message_id
     LEFT JOIN operators o ON o.id = m.operator_id
     WHERE c.last_message_id IS NOT NULL AND ($1::bigint IS NULL OR c.last_message_id < $1)
     ORDER BY c.last_message_id DESC LIMIT $2`,
    [beforeId ?? null, pageSize + 1],
  )
  return res.rows.map((r) => ({
    id: Number(r.last_id),
    userName: r.user_name,
    nickName: r.nick_name,
    lastMessage: toMessage(r),
    unread: r.unread,
  }))
}

/** Which of these user sessions are still live (not revoked, not expired). */
export async function liveSessionIds(q: Queryable, sessionIds: number[]): Promise<Set<number>> {
  const res = await q.query<{ id: string }>(
    `SELECT id FROM sessions
     WHERE id = ANY($1::bigint[]) AND revoked_at IS NULL AND expires_at > now()`,
    [sessionIds],
  )
  return new Set(res.rows.map((r) => Number(r.id)))
}
