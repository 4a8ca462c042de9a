import type { PriceRange, PriceSymbol } from '@hope/api'
import { queryOptions } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useFirstRead } from './first-read.ts'
import { request } from './request.ts'
import { useSession } from '../store.ts'

/** How often open screens ask for prices again: prices are sampled at least hourly, changes at once. */
export const PRICES_REFRESH_MS = 60_000

/** One key factory for the price queries. */
export const pricesKeys = {
  all: ['prices'] as const,
  current: (symbol: PriceSymbol) => [...pricesKeys.all, 'current', symbol] as const,
  history: (symbol: PriceSymbol, range: PriceRange) =>
    [...pricesKeys.all, 'history', symbol, range] as const,
}

/** `main/getETHPrice` / `main/getETLDPrice`: the answer is the price itself (spec §7). */
export function currentPriceOptions(symbol: PriceSymbol) {
  return queryOptions({
    queryKey: pricesKeys.current(symbol),
    queryFn: ({ signal }) =>
      request(
        symbol === 'ETH' ? 'main/getETHPrice' : 'main/getETLDPrice',
        {},
        {
          signal,
          hideToast: true,
        },
      ),
    staleTime: 30_000,
    refetchInterval: PRICES_REFRESH_MS,
  })
}

/**
 * `main/priceHistory`: a symbol's current price, its 24-hour change and the chart of a range.
 * Switching ranges keeps the last chart on screen until the new one arrives.
 */
export function priceHistoryOptions(symbol: PriceSymbol, range: PriceRange) {
  return queryOptions({
    queryKey: pricesKeys.history(symbol, range),
    // The screens say a failed load themselves (a retry on quotes, a dash on the home).
    queryFn: ({ signal }) =>
      request('main/priceHistory', { symbol, range }, { signal, hideToast: true }),
    staleTime: 30_000,
    refetchInterval: PRICES_REFRESH_MS,
    // TanStack's keepPreviousData, written here: importing it would put the query cache's
    // code on the first screen, which reads prices without it.
    placeholderData: (previous) => previous,
  })
}

/**
 * Keeps the session's ETH and HOPE prices (spec §3) as the server answers them, refreshed
 * while the app is open; until the first answer they stay at their default 1. Read as a first
 * read: the guard runs before the query cache loads.
 */
export function usePriceSync(): void {
  const eth = useFirstRead(currentPriceOptions('ETH'))
  const hope = useFirstRead(currentPriceOptions('HOPE'))
  const setPrices = useSession((s) => s.setPrices)
  useEffect(() => {
    setPrices({ ethPrice: eth.data, hopePrice: hope.data })
  }, [eth.data, hope.data, setPrices])
  useRefresh(() => {
    void eth.refetch()
    void hope.refetch()
  })
}

/** Calls `refresh` every PRICES_REFRESH_MS while mounted (first reads do not poll). */
export function useRefresh(refresh: () => void): void {
  const latest = useRef(refresh)
  latest.current = refresh
  useEffect(() => {
    const timer = setInterval(() => latest.current(), PRICES_REFRESH_MS)
    return () => clearInterval(timer)
  }, [])
}
