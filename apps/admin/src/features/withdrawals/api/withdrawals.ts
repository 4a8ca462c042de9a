import type { AdminBulkReviewResult, Withdrawal, WithdrawalStatusCode } from '@hope/api'
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
  type UseMutationOptions,
} from '@tanstack/react-query'
import { dashboardKeys } from '../../../lib/query-keys.ts'
import { request, type ApiError } from '../../../lib/request.ts'

export interface WithdrawalSearch {
  /** undefined: every status */
  status: WithdrawalStatusCode | undefined
  q: string
  pageNum: number
  pageSize: number
}

export const withdrawalKeys = {
  all: ['withdrawals'] as const,
  list: (search: WithdrawalSearch) => [...withdrawalKeys.all, 'list', search] as const,
}

/** `admin/withdrawals`: by status and address, newest first. */
export function withdrawalsOptions(search: WithdrawalSearch) {
  return queryOptions({
    queryKey: withdrawalKeys.list(search),
    queryFn: ({ signal }) =>
      request(
        'admin/withdrawals',
        {
          status: search.status,
          q: search.q || undefined,
          pageNum: search.pageNum,
          pageSize: search.pageSize,
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  })
}

export interface ReviewVariables {
  id: number
  decision: 'approve' | 'reject'
  reason?: string
}

type Options<D, V> = Omit<UseMutationOptions<D, ApiError, V>, 'mutationFn'>

/** Lists and the dashboard's pending count change after any review. */
function useRefreshAfterReview() {
  const queryClient = useQueryClient()
  return () => {
    void queryClient.invalidateQueries({ queryKey: withdrawalKeys.all })
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.all })
  }
}

/** `admin/reviewWithdraw`: approve (the hot wallet pays out) or reject (refunded) one request. */
export function useReviewWithdrawal({
  onSuccess,
  ...options
}: Options<Withdrawal, ReviewVariables> = {}) {
  const refresh = useRefreshAfterReview()
  return useMutation({
    ...options,
    mutationFn: ({ id, decision, reason }: ReviewVariables) =>
      request('admin/reviewWithdraw', { id, decision, reason }),
    onSuccess: (...args) => {
      refresh()
      return onSuccess?.(...args)
    },
  })
}

export interface BulkReviewVariables {
  ids: number[]
  decision: 'approve' | 'reject'
  reason?: string
}

/** `admin/bulkReviewWithdraw`: several pending requests at once; the others are skipped. */
export function useBulkReview({
  onSuccess,
  ...options
}: Options<AdminBulkReviewResult, BulkReviewVariables> = {}) {
  const refresh = useRefreshAfterReview()
  return useMutation({
    ...options,
    mutationFn: ({ ids, decision, reason }: BulkReviewVariables) =>
      request('admin/bulkReviewWithdraw', { ids: ids.join(','), decision, reason }),
    onSuccess: (...args) => {
      refresh()
      return onSuccess?.(...args)
    },
  })
}
