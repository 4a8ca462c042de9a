import type { BalanceList } from '@hope/api'
import { queryOptions } from '@tanstack/react-query'
import { prefetchFirstRead } from './first-read.ts'
import { request } from './request.ts'
import { useSession } from '../store.ts'
import { accountKeys } from './account-keys.ts'

/**
 * `userAccount/balance`: the list of the five accounts, each item carrying the total value in
 * USDT and the HOPE price used (see `balanceTotals`). Shared by home (summary), assets and
 * transfer (available USDT).
 */
export function balanceOptions({ quiet = false }: { quiet?: boolean } = {}) {
  return queryOptions({
    queryKey: accountKeys.balance(),
    queryFn: ({ signal }) => request('userAccount/balance', {}, { signal, hideToast: quiet }),
    // Money moves outside this page (deposits, operators, transfers from others): every
    // screen that shows a balance asks again when it opens, showing the last known meanwhile.
    staleTime: 0,
  })
}

/**
 * Asks for the balance as the page starts, when a token is stored, for a first screen that
 * shows it: the answer waits in the first reads (lib/api/first-read.ts) and moves into the query
 * cache when that loads. Quiet: a refused token is the session check's to report. A token that
 * turns out refused or another wallet's drops the answer with it.
 */
export function prefetchBalance(): void {
  if (!useSession.getState().token) return
  void prefetchFirstRead({
    ...balanceOptions({ quiet: true }),
  })
}

/**
 * The total value in USDT and the HOPE price of a balance list: every item carries the same
 * two, so the first one's stand for the list; '0' for a list without items.
 */
export function balanceTotals(list: BalanceList): {
  totalValueUsdt: string
  hopePriceUsdt: string
} {
  const first = list.at(0)
  return {
    totalValueUsdt: first?.totalValueUsdt ?? '0',
    hopePriceUsdt: first?.hopePriceUsdt ?? '0',
  }
}
