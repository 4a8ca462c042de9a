import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import type { PageRequest } from '../../../lib/pagination.ts'
import { request } from '../../../lib/request.ts'

export interface AuditSearch extends PageRequest {
  action: string
}

export const auditKeys = {
  all: ['audit'] as const,
  list: (search: AuditSearch) => [...auditKeys.all, 'list', search] as const,
}

/** `admin/audit`: every operator change, newest first, optionally of one action. */
export function auditOptions(search: AuditSearch) {
  return queryOptions({
    queryKey: auditKeys.list(search),
    queryFn: ({ signal }) =>
      request(
        'admin/audit',
        {
          action: search.action || undefined,
          pageNum: search.pageNum,
          pageSize: search.pageSize,
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  })
}
