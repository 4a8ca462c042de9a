import type { PriceRange, PriceSymbol } from '@hope/api'
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { request } from '../../../lib/request.ts'
import { quotesKeys } from './quotes-keys.ts'

/** How often an open quotes screen asks again: prices are sampled at least hourly, changes at once. */
export const QUOTES_REFRESH_MS = 60_000

/**
 * `main/priceHistory`: a symbol's current price, its 24-hour change and the chart of a range.
 * Switching ranges keeps the last chart on screen until the new one arrives.
 */
export function priceHistoryOptions(symbol: PriceSymbol, range: PriceRange) {
  return queryOptions({
    queryKey: quotesKeys.history(symbol, range),
    queryFn: ({ signal }) => request('main/priceHistory', { symbol, range }, { signal }),
    staleTime: 30_000,
    refetchInterval: QUOTES_REFRESH_MS,
    placeholderData: keepPreviousData,
  })
}
