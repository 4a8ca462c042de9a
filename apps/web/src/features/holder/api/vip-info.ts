import { queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/request.ts'
import { holderKeys } from './holder-keys.ts'

/**
 * `game/vipInfo`: my level and nodes, the level and node prices, the nodes' reward shares and
 * the e-mail to apply for a shareholder tier. Asked again whenever a screen opens.
 */
export function vipInfoOptions() {
  return queryOptions({
    queryKey: holderKeys.vipInfo(),
    queryFn: ({ signal }) => request('game/vipInfo', {}, { signal }),
    staleTime: 0,
  })
}
