import type { AccountKind, EnabledCoin } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { balanceOptions } from '../api/balance.ts'
import { enabledCoinsOptions } from '../api/enabled-coins.ts'

/** What a form frame reads of a query (a TanStack query result fits). */
interface Loaded<T> {
  data: T | undefined
  isPending: boolean
  isError: boolean
  refetch: () => unknown
}

/**
 * Loads what a money form needs (its terms and the available balance of the account it
 * spends), with one skeleton and one retry for every money screen; test ids are
 * `<testId>-page`, `<testId>-skeleton` and `<testId>-retry`.
 */
export function FormFrame<T>({
  testId,
  className,
  account,
  terms,
  children,
}: {
  testId: string
  className: string
  account: AccountKind
  terms: Loaded<T>
  children: (terms: T, available: string) => ReactNode
}) {
  const { t } = useTranslation()
  const balance = useQuery(balanceOptions())
  const spent = balance.data?.find((a) => a.kind === account)

  return (
    <div className={className} data-testid={`${testId}-page`}>
      {balance.isPending || terms.isPending ? (
        <div className="card" aria-busy="true" data-testid={`${testId}-skeleton`}>
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={5} animated />
        </div>
      ) : terms.data === undefined || !spent ? (
        <button
          type="button"
          className="money-retry"
          onClick={() => {
            if (balance.isError || !spent) void balance.refetch()
            if (terms.isError || terms.data === undefined) void terms.refetch()
          }}
          data-testid={`${testId}-retry`}
        >
          {t('common.loadFailed')}
        </button>
      ) : (
        children(terms.data, spent.available)
      )}
    </div>
  )
}

/** The USDT coin's terms (decimals, minimums, fees); no data when USDT is not enabled. */
export function useUsdtTerms() {
  return useQuery({
    ...enabledCoinsOptions(),
    select: (coins): EnabledCoin | undefined => coins.find((c) => c.currency === 'USDT'),
  })
}
