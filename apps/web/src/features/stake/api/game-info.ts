import { queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/api/request.ts'
import { stakingKeys } from '../../../lib/api/staking-keys.ts'

/**
 * `game/info`: the sale stage and its real-time price, the rules of consensus entry and of
 * redemption (settings), and the user's own summary. Asked again whenever a screen opens.
 */
export function gameInfoOptions() {
  return queryOptions({
    queryKey: stakingKeys.info(),
    queryFn: ({ signal }) => request('game/info', {}, { signal }),
    staleTime: 0,
  })
}
