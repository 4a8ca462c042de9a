import type { QueryClient } from '@tanstack/react-query'
import { queryOptions } from '@tanstack/react-query'
import { request } from './request.ts'
import { useSession } from '../store.ts'

/** One key factory for `user/getUserInfo`. */
export const userKeys = {
  all: ['user'] as const,
  info: () => [...userKeys.all, 'info'] as const,
}

/** `user/getUserInfo`: the signed-in user (level, nodes, invitation code, …). */
export function userInfoOptions() {
  return queryOptions({
    queryKey: userKeys.info(),
    queryFn: ({ signal }) => request('user/getUserInfo', {}, { signal, hideToast: true }),
  })
}

/**
 * Asks `user/getUserInfo` again and keeps the answer as the session's user, which the home
 * and My account screens show (their level and nodes): an upgrade or a node purchase shows
 * there without a reload. An answer for a session that has meanwhile changed is dropped.
 */
export async function refreshSessionUser(queryClient: QueryClient): Promise<void> {
  const { token } = useSession.getState()
  if (!token) return
  try {
    const info = await queryClient.fetchQuery({ ...userInfoOptions(), staleTime: 0 })
    if (useSession.getState().token === token) useSession.getState().confirmToken(info)
  } catch {
    // The session's copy stays; the next start or sign-in reads it again.
  }
}
