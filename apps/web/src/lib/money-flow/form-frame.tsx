import type { AccountKind, EnabledCoin } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import type { ComponentType, ReactNode } from 'react'
import { balanceOptions } from '../api/balance.ts'
import { enabledCoinsOptions } from '../api/enabled-coins.ts'
import { RetryButton } from '../ui/retry-button.tsx'

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
 * `<testId>-skeleton` (unless the screen draws its own) and `<testId>-retry`.
 */
export function FormLoad<T>({
  testId,
  account,
  terms,
  skeleton,
  children,
}: {
  testId: string
  account: AccountKind
  terms: Loaded<T>
  skeleton?: ReactNode
  children: (terms: T, available: string) => ReactNode
}) {
  const balance = useQuery(balanceOptions())
  const spent = balance.data?.find((a) => a.kind === account)

  if (balance.isPending || terms.isPending)
    return (
      skeleton ?? (
        <div className="card" aria-busy="true" data-testid={`${testId}-skeleton`}>
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={5} animated />
        </div>
      )
    )
  if (terms.data === undefined || !spent)
    return (
      <RetryButton
        className="records-empty records-retry money-retry"
        onClick={() => {
          if (balance.isError || !spent) void balance.refetch()
          if (terms.isError || terms.data === undefined) void terms.refetch()
        }}
        data-testid={`${testId}-retry`}
      />
    )
  return children(terms.data, spent.available)
}

/** The skeleton of a money screen with a hero card above two cards; `<testId>-skeleton`. */
export function HeroSkeleton({ testId, hero }: { testId: string; hero: string }) {
  return (
    <div aria-busy="true" data-testid={`${testId}-skeleton`}>
      <section className={hero}>
        <Skeleton.Paragraph lineCount={3} animated />
      </section>
      {[1, 2].map((n) => (
        <section key={n} className="card">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={3} animated />
        </section>
      ))}
    </div>
  )
}

/** A money screen that is only its form: `<testId>-page` around {@link FormLoad}. */
export function FormFrame<T>({
  className,
  ...load
}: Parameters<typeof FormLoad<T>>[0] & { className: string }) {
  return (
    <div className={className} data-testid={`${load.testId}-page`}>
      <FormLoad {...load} />
    </div>
  )
}

/** A money screen that is only a USDT form: the USDT coin's terms, the USDT account. */
export function UsdtFormFrame({
  testId,
  className,
  form: Form,
}: {
  testId: string
  className: string
  form: ComponentType<{ coin: EnabledCoin; available: string }>
}) {
  return (
    <FormFrame testId={testId} className={className} account="usdt" terms={useUsdtTerms()}>
      {(coin, available) => <Form coin={coin} available={available} />}
    </FormFrame>
  )
}

/** The USDT coin's terms (decimals, minimums, fees); no data when USDT is not enabled. */
export function useUsdtTerms() {
  return useQuery({
    ...enabledCoinsOptions(),
    select: (coins): EnabledCoin | undefined => coins.find((c) => c.currency === 'USDT'),
  })
}
