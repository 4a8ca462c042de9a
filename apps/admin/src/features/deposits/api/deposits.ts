import type { PageRequest } from '../../../lib/pagination.ts'
import { searchKeys, searchPageOptions } from '../../../lib/page-query.ts'

export interface DepositSearch extends PageRequest {
  q: string
}

export const depositKeys = searchKeys<DepositSearch>('deposits')

/** `admin/deposits`: recorded deposits by address or transaction hash, newest first. */
export function depositsOptions(search: DepositSearch) {
  return searchPageOptions(depositKeys, 'admin/deposits', search, { q: search.q || undefined })
}
