import type { PorStatement } from '@hope/api'
import { request } from '../../../lib/api/request.ts'

/**
 * `por/myStatement`: what the signed-in user's account log showed at a snapshot's cut, to
 * compare with the proof: at the ledger position the registry anchored on chain when given
 * (null before a snapshot with a cut is published).
 */
export function fetchMyStatement(
  params: { snapshotId?: number; ledgerPosition?: string } = {},
  signal?: AbortSignal,
): Promise<PorStatement | null> {
  return request('por/myStatement', params, { hideToast: true, ...(signal ? { signal } : {}) })
}
