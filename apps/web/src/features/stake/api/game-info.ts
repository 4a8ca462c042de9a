import { queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/request.ts'
import { gameKeys } from './game-keys.ts'

/**
 * `game/info`: the sale stage and its real-time price, the rules of consensus entry and of
 * redemption (settings), and the user's own summary. Asked again whenever a screen opens.
 */
export function gameInfoOptions() {
  return queryOptions({
    queryKey: gameKeys.info(),
    queryFn: ({ signal }) => request('game/info', {}, { signal }),
    staleTime: 0,
  })
}
