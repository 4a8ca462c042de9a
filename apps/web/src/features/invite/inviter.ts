import { queryOptions } from '@tanstack/react-query'
import { prefetchFirstRead } from '../../lib/api/first-read.ts'
import type { Reason } from '@hope/api'
import { ApiError, request } from '../../lib/api/request.ts'
import { useSession } from '../../lib/store.ts'
import { readUrlParam } from '../../lib/url.ts'

/** What the server says of an inviter it does not know (or of a malformed name). */
const UNKNOWN_INVITER: readonly (Reason | undefined)[] = [
  'not_registered',
  'inviter_not_found',
  'invalid_params',
]

/** Whether the server refused the inviter itself (not a network failure). */
export const isUnknownInviter = (error: unknown): boolean =>
  error instanceof ApiError && UNKNOWN_INVITER.includes(error.reason)

/**
 * The inviter from the link, checked with the registered call (no toast when unknown); null
 * without one. An inviter the server does not know leaves storage. Read without TanStack Query
 * (lib/api/first-read.ts): a newcomer opens the app at the invite screen, which should not wait.
 */
export function inviterOptions(pusername: string | null) {
  return queryOptions({
    queryKey: ['inviter', pusername] as const,
    queryFn: ({ signal }) =>
      pusername
        ? request(
            'user/getUserInfoByName',
            { userName: pusername },
            { hideToast: true, signal },
          ).catch((error: unknown) => {
            if (isUnknownInviter(error)) useSession.getState().forgetPusername(pusername)
            throw error
          })
        : Promise.resolve(null),
    staleTime: Infinity,
  })
}

/** Checks the link's inviter (or the stored one) as the page starts, opened at the invite screen. */
export function prefetchInviter(): void {
  const pusername = readUrlParam('pusername') ?? useSession.getState().pusername
  if (pusername) void prefetchFirstRead(inviterOptions(pusername))
}
