import type { PageRequest } from '../../../lib/pagination.ts'
import { pageQueryOptions } from '../../../lib/page-query.ts'

export interface AuditSearch extends PageRequest {
  action: string
}

export const auditKeys = {
  all: ['audit'] as const,
  list: (search: AuditSearch) => [...auditKeys.all, 'list', search] as const,
}

/** `admin/audit`: every operator change, newest first, optionally of one action. */
export function auditOptions(search: AuditSearch) {
  return pageQueryOptions(auditKeys.list(search), 'admin/audit', {
    action: search.action || undefined,
    pageNum: search.pageNum,
    pageSize: search.pageSize,
  })
}
