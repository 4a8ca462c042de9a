import type { PageRequest } from '../../../lib/pagination.ts'
import { pageQueryOptions } from '../../../lib/page-query.ts'

export interface DepositSearch extends PageRequest {
  q: string
}

export const depositKeys = {
  all: ['deposits'] as const,
  list: (search: DepositSearch) => [...depositKeys.all, 'list', search] as const,
}

/** `admin/deposits`: recorded deposits by address or transaction hash, newest first. */
export function depositsOptions(search: DepositSearch) {
  return pageQueryOptions(depositKeys.list(search), 'admin/deposits', {
    q: search.q || undefined,
    pageNum: search.pageNum,
    pageSize: search.pageSize,
  })
}
