import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../../../lib/request.ts'
import { clearSession } from '../../../lib/session.ts'

export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
}

/** `admin/me`: who the token belongs to now (a role may have changed since the sign-in). */
export function meOptions() {
  return queryOptions({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => request('admin/me', {}, { signal }),
    staleTime: 60_000,
  })
}

/** `admin/logout`: revokes the token; the console signs out locally whatever the answer. */
export function useLogout() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => request('admin/logout', {}),
    meta: { inlineError: true },
    onSettled: () => {
      clearSession()
      queryClient.clear()
    },
  })
}
