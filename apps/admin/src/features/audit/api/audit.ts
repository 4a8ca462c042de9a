import type { PageRequest } from '../../../lib/pagination.ts'
import { searchKeys, searchPageOptions } from '../../../lib/page-query.ts'

export interface AuditSearch extends PageRequest {
  action: string
}

export const auditKeys = searchKeys<AuditSearch>('audit')

/** `admin/audit`: every operator change, newest first, optionally of one action. */
export function auditOptions(search: AuditSearch) {
  return searchPageOptions(auditKeys, 'admin/audit', search, {
    action: search.action || undefined,
  })
}
