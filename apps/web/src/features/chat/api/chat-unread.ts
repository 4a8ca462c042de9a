import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { useSession } from '../../../lib/store.ts'
import { chatKeys } from './chat-keys.ts'

/** How often a badge asks again while it shows (the chat screen sets it at once). */
export const CHAT_UNREAD_REFRESH_MS = 60_000

/** `chat/unread`: support messages the user has not read yet. */
export function chatUnreadOptions() {
  return queryOptions({
    queryKey: chatKeys.unread(),
    queryFn: ({ signal }) => request('chat/unread', {}, { signal, hideToast: true }),
    refetchInterval: CHAT_UNREAD_REFRESH_MS,
    // Answers arrive while the user is on other screens: a badge that appears asks again.
    staleTime: 0,
    select: (data) => data.count,
  })
}

/**
 * The unread count for a badge anywhere in the app (0 until known, and while signed out); it
 * needs the query cache around it (QueryScope).
 * @example const unread = useChatUnread(); return unread > 0 ? <Badge content={unread} /> : null
 */
export function useChatUnread(): number {
  const signedIn = useSession((s) => s.token !== null)
  const query = useQuery({ ...chatUnreadOptions(), enabled: signedIn })
  return signedIn ? (query.data ?? 0) : 0
}
