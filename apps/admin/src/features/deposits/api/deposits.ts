import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import type { PageRequest } from '../../../lib/pagination.ts'
import { request } from '../../../lib/request.ts'

export interface DepositSearch extends PageRequest {
  q: string
}

export const depositKeys = {
  all: ['deposits'] as const,
  list: (search: DepositSearch) => [...depositKeys.all, 'list', search] as const,
}

/** `admin/deposits`: recorded deposits by address or transaction hash, newest first. */
export function depositsOptions(search: DepositSearch) {
  return queryOptions({
    queryKey: depositKeys.list(search),
    queryFn: ({ signal }) =>
      request(
        'admin/deposits',
        { q: search.q || undefined, pageNum: search.pageNum, pageSize: search.pageSize },
        { signal },
      ),
    placeholderData: keepPreviousData,
  })
}
