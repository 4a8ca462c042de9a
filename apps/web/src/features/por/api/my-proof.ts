import { queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { porKeys } from '../../../lib/api/por-keys.ts'

/**
 * `por/myProof`: the signed-in user's proof file of the newest published snapshot, as JSON the
 * verifier parses itself (null when the user joined after the snapshot's block). Only the file
 * comes from HOPE: the root it must lead to is read from the chain.
 */
export function fetchMyProof(signal?: AbortSignal): Promise<unknown> {
  return request('por/myProof', {}, { hideToast: true, ...(signal ? { signal } : {}) })
}

export function myProofOptions() {
  return queryOptions({
    queryKey: porKeys.myProof(),
    queryFn: ({ signal }) => fetchMyProof(signal),
    staleTime: 5 * 60_000,
  })
}
