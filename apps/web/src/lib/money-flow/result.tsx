// The result of a money flow, with the new balance.
import { type AccountKind } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { balanceOptions } from '../api/balance.ts'
import { Icon } from '../ui/icons.tsx'
import { useGoBack } from '../navigation.ts'
import { type Row, Rows } from './rows.tsx'
import { useMoney } from './amounts.tsx'

/** The new balance of an account, as the refreshed balance query answers it. */
function NewBalance({ testId, account }: { testId: string; account: AccountKind }) {
  const { t } = useTranslation('money')
  const money = useMoney()
  // The mutation's invalidation has refetched (or is refetching) the balance: no second request.
  const balance = useQuery({ ...balanceOptions(), refetchOnMount: false })
  const item = balance.data?.find((a) => a.kind === account)
  if (!item || balance.isFetching) return null
  return (
    <p className="money-result__balance" data-testid={`${testId}-result-balance`}>
      {t('flow.newBalance', {
        account: t(`accounts.${account}`),
        amount: money(item.available, item.currency),
      })}
    </p>
  )
}

/** The one result view: what moved, the new balance, the log filtered to it, and back. */
export function ResultView({
  testId,
  title,
  amount,
  rows,
  icon,
  account,
  log,
  doneLabel,
  onDone,
  note,
  doneTestId,
}: {
  testId: string
  title: string
  amount: string
  rows: Row[]
  /** What happens next to what moved (a pledged part released day by day). */
  note?: ReactNode
  icon?: ReactNode
  /** The account whose new balance to show. */
  account?: AccountKind
  log: { to: string; label: string; testId: string }
  doneLabel: string
  /** The done button's test id, `<testId>-result-back` unless it does something else. */
  doneTestId?: string
  onDone?: () => void
}) {
  const navigate = useNavigate()
  const goBack = useGoBack()
  return (
    <section className="card money-result" data-testid={`${testId}-result`}>
      {icon ?? (
        <span className="money-result__icon">
          <Icon name="check" />
        </span>
      )}
      <h2 className="money-result__title">{title}</h2>
      <p className="money-result__amount" data-testid={`${testId}-result-amount`}>
        {amount}
      </p>
      <Rows rows={rows} />
      {note}
      {account && <NewBalance testId={testId} account={account} />}
      <div className="money-result__actions">
        <Button
          block
          shape="rounded"
          onClick={() => void navigate(log.to)}
          data-testid={log.testId}
        >
          {log.label}
        </Button>
        <Button
          block
          color="primary"
          shape="rounded"
          onClick={onDone ?? goBack}
          data-testid={doneTestId ?? `${testId}-result-back`}
        >
          {doneLabel}
        </Button>
      </div>
    </section>
  )
}
