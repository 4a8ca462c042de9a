import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { dashboardKeys } from '../../../lib/query-keys.ts'
import { request } from '../../../lib/request.ts'

/** `admin/dashboard`: users, deposits, pending withdrawals, last settlement, ledger check. */
export function dashboardOptions() {
  return queryOptions({
    queryKey: dashboardKeys.summary(),
    queryFn: ({ signal }) => request('admin/dashboard', {}, { signal }),
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
