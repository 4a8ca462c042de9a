import type { AdminChatMessage, ChatSendResult } from '@hope/api'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../../../lib/request.ts'
import { useRefreshingMutation, type MutationOptions } from '../../../lib/mutation.ts'

/** The inbox has no socket: conversations and the open one are asked for again this often. */
export const CHAT_POLL_MS = 4_000
export const HISTORY_PAGE_SIZE = 50

export const chatKeys = {
  all: ['chat'] as const,
  conversations: () => [...chatKeys.all, 'conversations'] as const,
  history: (userName: string) => [...chatKeys.all, 'history', userName] as const,
  older: (userName: string, beforeId: number) =>
    [...chatKeys.all, 'history', userName, 'before', beforeId] as const,
}

/** `admin/chatList`: conversations, the latest message first, with unread counts. */
export function conversationsOptions() {
  return queryOptions({
    queryKey: chatKeys.conversations(),
    queryFn: ({ signal }) => request('admin/chatList', { pageSize: 100 }, { signal }),
    refetchInterval: CHAT_POLL_MS,
    staleTime: 0,
  })
}

/** `admin/chatHistory`: the newest messages of one conversation, newest first. */
export function historyOptions(userName: string) {
  return queryOptions({
    queryKey: chatKeys.history(userName),
    queryFn: ({ signal }) =>
      request('admin/chatHistory', { userName, pageSize: HISTORY_PAGE_SIZE }, { signal }),
    refetchInterval: CHAT_POLL_MS,
    staleTime: 0,
  })
}

/** An older page of a conversation (messages before `beforeId`); these never change. */
export function fetchOlder(userName: string, beforeId: number) {
  return request('admin/chatHistory', { userName, beforeId, pageSize: HISTORY_PAGE_SIZE })
}

export interface ReplyVariables {
  userName: string
  clientId: string
  body: string
}

type ReplyOptions = MutationOptions<ChatSendResult<AdminChatMessage>, ReplyVariables>

/** `admin/chatReply`: a resend with the same client id is stored once. */
export function useReply(options: ReplyOptions = {}) {
  return useRefreshingMutation(
    (params: ReplyVariables) => request('admin/chatReply', params),
    (params) => [chatKeys.history(params.userName), chatKeys.conversations()],
    options,
  )
}

/** `admin/chatRead`: the operators have seen the conversation up to a message. */
export function useMarkRead() {
  const queryClient = useQueryClient()
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (params: { userName: string; upToId: number }) => request('admin/chatRead', params),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatKeys.conversations() }),
  })
}
