import { accountKeys } from '../../../lib/api/account-keys.ts'
import { request } from '../../../lib/api/request.ts'
import { pagedQueryOptions } from '../../../lib/api/paged-query.ts'

export const RECHARGE_PAGE_SIZE = 20

/**
 * `userAccount/myRecharge`, newest first: recharges made here and plain wallet transfers
 * from the user's address alike.
 */
export function myRechargesOptions() {
  return pagedQueryOptions(accountKeys.rechargePages(), (pageNum, signal) =>
    request('userAccount/myRecharge', { pageNum, pageSize: RECHARGE_PAGE_SIZE }, { signal }),
  )
}
