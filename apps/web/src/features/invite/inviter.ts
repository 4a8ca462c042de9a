import { queryOptions } from '@tanstack/react-query'
import { prefetchFirstRead } from '../../lib/first-read.ts'
import { request } from '../../lib/request.ts'
import { useSession } from '../../lib/store.ts'
import { readUrlParam } from '../../lib/url.ts'

/**
 * The inviter from the link, checked with the registered call (no toast when unknown); null
 * without one. Read without TanStack Query (lib/first-read.ts): a newcomer opens the app at
 * the invite screen, which should not wait for it.
 */
export function inviterOptions(pusername: string | null) {
  return queryOptions({
    queryKey: ['inviter', pusername] as const,
    queryFn: ({ signal }) =>
      pusername
        ? request('user/getUserInfoByName', { userName: pusername }, { hideToast: true, signal })
        : Promise.resolve(null),
    staleTime: Infinity,
  })
}

/** Checks the link's inviter (or the stored one) as the page starts, opened at the invite screen. */
export function prefetchInviter(): void {
  const pusername = readUrlParam('pusername') ?? useSession.getState().pusername
  if (pusername) void prefetchFirstRead(inviterOptions(pusername))
}
