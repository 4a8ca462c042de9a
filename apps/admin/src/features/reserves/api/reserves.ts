import type { AdminPorPublishResult } from '@hope/api'
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/request.ts'
import { useRefreshingMutation, type MutationOptions } from '../../../lib/mutation.ts'

export const reservesKeys = {
  all: ['reserves'] as const,
  snapshots: (pageNum: number, pageSize: number) =>
    [...reservesKeys.all, 'snapshots', pageNum, pageSize] as const,
}

/** A snapshot being published is asked about again every few seconds until it is anchored. */
export const PENDING_POLL_MS = 5_000

/** `admin/porSnapshots`: proof-of-liabilities snapshots, newest first, with coverage. */
export function porSnapshotsOptions(pageNum: number, pageSize: number) {
  return queryOptions({
    queryKey: reservesKeys.snapshots(pageNum, pageSize),
    queryFn: ({ signal }) => request('admin/porSnapshots', { pageNum, pageSize }, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.list.some((s) => s.status === 'pending') ? PENDING_POLL_MS : false,
  })
}

type Options = MutationOptions<AdminPorPublishResult, void>

/** `admin/porPublish`: asks the snapshot job to take and publish a snapshot now. */
export function usePublishSnapshot(options: Options = {}) {
  return useRefreshingMutation(() => request('admin/porPublish', {}), [reservesKeys.all], options)
}
