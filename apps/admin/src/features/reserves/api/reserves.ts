import type { AdminPorPublishResult } from '@hope/api'
import { pageQueryOptions } from '../../../lib/page-query.ts'
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
  return pageQueryOptions(
    reservesKeys.snapshots(pageNum, pageSize),
    'admin/porSnapshots',
    { pageNum, pageSize },
    {
      everyMs: PENDING_POLL_MS,
      busy: (page) => page.list.some((s) => s.status === 'pending'),
    },
  )
}

type Options = MutationOptions<AdminPorPublishResult, void>

/** `admin/porPublish`: asks the snapshot job to take and publish a snapshot now. */
export function usePublishSnapshot(options: Options = {}) {
  return useRefreshingMutation(() => request('admin/porPublish', {}), [reservesKeys.all], options)
}
