import type { SettlementRun } from '@hope/api'
import { dashboardKeys } from '../../../lib/query-keys.ts'
import { pageQueryOptions } from '../../../lib/page-query.ts'
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
  return pageQueryOptions(
    settlementKeys.runs(pageNum, pageSize),
    'admin/settlementRuns',
    { pageNum, pageSize },
    {
      everyMs: RUNNING_POLL_MS,
      busy: (page) => page.list.some((r) => r.status === 'running'),
    },
  )
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
