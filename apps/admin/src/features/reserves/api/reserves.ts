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

/** How long after "Publish now" the list is asked again until the requested snapshot shows. */
export const REQUESTED_WAIT_MS = 120_000

/** A "Publish now" the list waits for: the server's time of the request, the console's. */
export interface PublishRequested {
  requestedAt: string
  atMs: number
}

/**
 * `admin/porSnapshots`: proof-of-liabilities snapshots, newest first, with coverage. Asked again
 * while one is being published, and after "Publish now" until a snapshot taken since shows
 * (the job takes the request on its next tick), for at most REQUESTED_WAIT_MS.
 */
export function porSnapshotsOptions(
  pageNum: number,
  pageSize: number,
  requested: PublishRequested | null = null,
) {
  const awaited = (list: { takenAt: string }[]) =>
    requested !== null &&
    Date.now() - requested.atMs < REQUESTED_WAIT_MS &&
    !list.some((s) => s.takenAt >= requested.requestedAt)
  return pageQueryOptions(
    reservesKeys.snapshots(pageNum, pageSize),
    'admin/porSnapshots',
    { pageNum, pageSize },
    {
      everyMs: PENDING_POLL_MS,
      busy: (page) => page.list.some((s) => s.status === 'pending') || awaited(page.list),
    },
  )
}

type Options = MutationOptions<AdminPorPublishResult, void>

/** `admin/porPublish`: asks the snapshot job to take and publish a snapshot now. */
export function usePublishSnapshot(options: Options = {}) {
  return useRefreshingMutation(() => request('admin/porPublish', {}), [reservesKeys.all], options)
}
