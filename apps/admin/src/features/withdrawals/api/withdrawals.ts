import type { AdminBulkReviewResult, Withdrawal, WithdrawalStatusCode } from '@hope/api'
import { dashboardKeys } from '../../../lib/query-keys.ts'
import type { PageRequest } from '../../../lib/pagination.ts'
import { searchKeys, searchPageOptions } from '../../../lib/page-query.ts'
import { request } from '../../../lib/request.ts'
import { useRefreshingMutation, type MutationOptions } from '../../../lib/mutation.ts'

export interface WithdrawalSearch extends PageRequest {
  /** undefined: every status */
  status: WithdrawalStatusCode | undefined
  q: string
}

export const withdrawalKeys = searchKeys<WithdrawalSearch>('withdrawals')

/** `admin/withdrawals`: by status and address, newest first. */
export function withdrawalsOptions(search: WithdrawalSearch) {
  return searchPageOptions(withdrawalKeys, 'admin/withdrawals', search, {
    status: search.status,
    q: search.q || undefined,
  })
}

export interface ReviewVariables {
  id: number
  decision: 'approve' | 'reject'
  reason?: string
}

/** Lists and the dashboard's pending count change after any review. */
/** What a review changes: the withdrawal lists and the dashboard's counts. */
const REVIEW_REFRESHES = [withdrawalKeys.all, dashboardKeys.all]

/** `admin/reviewWithdraw`: approve (the hot wallet pays out) or reject (refunded) one request. */
export function useReviewWithdrawal(options: MutationOptions<Withdrawal, ReviewVariables> = {}) {
  return useRefreshingMutation(
    ({ id, decision, reason }: ReviewVariables) =>
      request('admin/reviewWithdraw', { id, decision, reason }),
    REVIEW_REFRESHES,
    options,
  )
}

export interface BulkReviewVariables {
  ids: number[]
  decision: 'approve' | 'reject'
  reason?: string
}

/** `admin/bulkReviewWithdraw`: several pending requests at once; the others are skipped. */
export function useBulkReview(
  options: MutationOptions<AdminBulkReviewResult, BulkReviewVariables> = {},
) {
  return useRefreshingMutation(
    ({ ids, decision, reason }: BulkReviewVariables) =>
      request('admin/bulkReviewWithdraw', { ids: ids.join(','), decision, reason }),
    REVIEW_REFRESHES,
    options,
  )
}
