import type { ChatSendParams, ChatSendResult } from '@hope/api'
import { request } from '../../../lib/api/request.ts'

/**
 * `chat/send`: the way a message goes out while the socket is down. The client id is the
 * same one the socket would send, so whichever arrives second finds the first.
 */
export function sendChatMessage(params: ChatSendParams): Promise<ChatSendResult> {
  return request('chat/send', params, { hideToast: true })
}
