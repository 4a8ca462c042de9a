import type { SettlementRun } from '@hope/api'
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { dashboardKeys } from '../../../lib/query-keys.ts'
import { request } from '../../../lib/request.ts'
import { useRefreshingMutation, type MutationOptions } from '../../../lib/mutation.ts'

export const settlementKeys = {
  all: ['settlement'] as const,
  runs: (pageNum: number, pageSize: number) =>
    [...settlementKeys.all, 'runs', pageNum, pageSize] as const,
}

/** A running settlement is asked about again every few seconds until it is done. */
export const RUNNING_POLL_MS = 3_000

/** `admin/settlementRuns`: daily settlement runs, newest first, with progress and totals. */
export function settlementRunsOptions(pageNum: number, pageSize: number) {
  return queryOptions({
    queryKey: settlementKeys.runs(pageNum, pageSize),
    queryFn: ({ signal }) => request('admin/settlementRuns', { pageNum, pageSize }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.list.some((r) => r.status === 'running') ? RUNNING_POLL_MS : false,
  })
}

type Options = MutationOptions<SettlementRun, string>

/** `admin/settle`: runs (or resumes) the settlement of a day; nothing is paid twice. */
export function useSettleDay(options: Options = {}) {
  return useRefreshingMutation(
    (day: string) => request('admin/settle', { day }),
    [settlementKeys.all, dashboardKeys.all],
    options,
  )
}
