import type { ChatUnread } from '@hope/api'
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query'
import { request, type ApiError } from '../../../lib/api/request.ts'
import { chatKeys } from './chat-keys.ts'

/** `chat/read`: the user has seen the conversation up to this message. */
export function markChatRead(upToId: number): Promise<ChatUnread> {
  return request('chat/read', { upToId }, { hideToast: true })
}

type Options = Omit<UseMutationOptions<ChatUnread, ApiError, number>, 'mutationFn'>

/** The unread badge takes the count the server answers, whatever the caller adds. */
export function useMarkChatRead({ onSuccess, ...options }: Options = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn: markChatRead,
    onSuccess: (...args) => {
      queryClient.setQueryData(chatKeys.unread(), args[0])
      return onSuccess?.(...args)
    },
  })
}
