import type { ChatHistory } from '@hope/api'
import { request } from '../../../lib/api/request.ts'

export const CHAT_PAGE_SIZE = 30

/**
 * `chat/history`: the user's conversation, newest first; `beforeId` asks for the page before
 * the oldest message shown. Held in the chat screen's own state, not the query cache: socket
 * messages, acks and pages all merge into one list.
 */
export function fetchChatHistory(beforeId?: number): Promise<ChatHistory> {
  return request('chat/history', { pageSize: CHAT_PAGE_SIZE, beforeId }, { hideToast: true })
}
