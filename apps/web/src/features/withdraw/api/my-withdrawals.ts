import { accountKeys } from '../../../lib/api/account-keys.ts'
import { request } from '../../../lib/api/request.ts'
import { pagedQueryOptions } from '../../../lib/api/paged-query.ts'

export const WITHDRAWAL_PAGE_SIZE = 20

/** `userAccount/myWithDraw`: the user's withdrawals, newest first. */
export function myWithdrawalsOptions() {
  return pagedQueryOptions(accountKeys.withdrawals(), (pageNum, signal) =>
    request('userAccount/myWithDraw', { pageNum, pageSize: WITHDRAWAL_PAGE_SIZE }, { signal }),
  )
}
