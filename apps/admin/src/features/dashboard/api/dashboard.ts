import type { AdminResolvedAlarm } from '@hope/api'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { type MutationOptions, useRefreshingMutation } from '../../../lib/mutation.ts'
import { dashboardKeys } from '../../../lib/query-keys.ts'
import { ApiError, request } from '../../../lib/request.ts'

/** `admin/dashboard`: users, deposits, pending withdrawals, last settlement, ledger check. */
export function dashboardOptions() {
  return queryOptions({
    queryKey: dashboardKeys.summary(),
    queryFn: ({ signal }) => request('admin/dashboard', {}, { signal }),
    staleTime: 0,
  })
}

/**
 * `admin/signInsByDay`: sign-ins per day of the last 30 days by message, with the legacy share.
 * Under the dashboard's keys, so what refreshes the dashboard refreshes it too.
 */
export function signInsByDayOptions() {
  return queryOptions({
    queryKey: [...dashboardKeys.all, 'signInsByDay'] as const,
    queryFn: ({ signal }) => request('admin/signInsByDay', {}, { signal }),
    staleTime: 0,
  })
}

/** `admin/checkLedger`: runs the ledger invariants now; the dashboard shows the new result. */
export function useCheckLedger() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => request('admin/checkLedger', {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
  })
}

export type ResolveAlarmVariables = { id: number; reason: string }

/**
 * `admin/resolveAlarm`: closes an open alarm with the operator's reason; audited. The dashboard
 * is read again once it is closed, and also when someone else closed it first (409
 * `already_resolved`): the banner was out of date either way.
 */
export function useResolveAlarm({
  onError,
  ...options
}: MutationOptions<AdminResolvedAlarm, ResolveAlarmVariables> = {}) {
  const queryClient = useQueryClient()
  return useRefreshingMutation(
    ({ id, reason }: ResolveAlarmVariables) => request('admin/resolveAlarm', { id, reason }),
    [dashboardKeys.all],
    {
      ...options,
      onError: (error, ...rest) => {
        if (error instanceof ApiError && error.reason === 'already_resolved')
          void queryClient.invalidateQueries({ queryKey: dashboardKeys.all })
        return onError?.(error, ...rest)
      },
    },
  )
}
