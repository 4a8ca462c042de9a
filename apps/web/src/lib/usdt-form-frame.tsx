import type { EnabledCoin } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { balanceOptions } from './api/balance.ts'
import { enabledCoinsOptions } from './api/enabled-coins.ts'

/**
 * Loads what a USDT money form needs (the coin's terms and the available USDT), with the
 * skeleton and the retry the transfer and withdraw screens share; test ids are
 * `<testId>-skeleton` and `<testId>-retry`.
 */
export function UsdtFormFrame({
  testId,
  className,
  children,
}: {
  testId: string
  className: string
  children: (coin: EnabledCoin, available: string) => ReactNode
}) {
  const { t } = useTranslation()
  const balance = useQuery(balanceOptions())
  const coins = useQuery(enabledCoinsOptions())
  const coin = coins.data?.find((c) => c.currency === 'USDT')
  const usdt = balance.data?.find((a) => a.kind === 'usdt')

  return (
    <div className={className} data-testid={`${testId}-page`}>
      {balance.isPending || coins.isPending ? (
        <div className="card" aria-busy="true" data-testid={`${testId}-skeleton`}>
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={5} animated />
        </div>
      ) : !coin || !usdt ? (
        <button
          type="button"
          className="money-retry"
          onClick={() => {
            if (balance.isError) void balance.refetch()
            if (coins.isError || !coin) void coins.refetch()
          }}
          data-testid={`${testId}-retry`}
        >
          {t('common.loadFailed')}
        </button>
      ) : (
        children(coin, usdt.available)
      )}
    </div>
  )
}
