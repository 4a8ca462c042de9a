// The node and shareholder accounts on the holder screen, and their collection into USDT.
import { type AccountBalance, type BalanceList, type CollectResult } from '@hope/api'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { formatMoney } from '../../lib/format/format.ts'
import { liveOf } from '../../lib/money-flow/checks.ts'
import {
  FlowAmountField,
  MoneyFlow,
  MoneyForm,
  Rows,
  SheetFrame,
  strongRow,
  useAmounts,
} from '../../lib/money-flow/money-flow.tsx'
import { useAmountText } from '../../lib/money-flow/use-amount.ts'
import { useCollectBalance } from './api/collect-balance.ts'
import {
  checkCollect,
  USDT_DECIMALS,
  usdtUnits,
  type CollectAccount,
  type CollectProblem,
  USDT_LOG,
} from './holder.rules.ts'

const COLLECT_ACCOUNTS: CollectAccount[] = ['node', 'shareholder']
const ACCOUNT_LABELS = {
  node: 'holder.accountNode',
  shareholder: 'holder.accountShareholder',
} as const

export function AccountsCard({
  accounts,
  onCollect,
}: {
  accounts: Record<CollectAccount, AccountBalance>
  onCollect: (account: CollectAccount) => void
}) {
  const { t } = useTranslation(['holder', 'money', 'translation'])
  const { lang } = useAmounts()
  const labelId = useId()
  return (
    <section className="card">
      <h2 className="section-title">
        {t('holder.accounts')}
        <span className="holder-muted">USDT</span>
      </h2>
      <div className="holder-accounts">
        {COLLECT_ACCOUNTS.map((kind) => (
          // A group named by its account: a screen reader says whose "collect" each button is.
          <div
            key={kind}
            className="holder-account"
            role="group"
            aria-labelledby={`${labelId}-${kind}`}
          >
            <span id={`${labelId}-${kind}`} className="holder-account__label">
              {t(ACCOUNT_LABELS[kind])}
            </span>
            <span className="holder-account__value" data-testid={`holder-account-${kind}`}>
              {formatMoney(accounts[kind].available, lang)}
            </span>
            <button
              type="button"
              className="holder-account__action"
              onClick={() => onCollect(kind)}
              // Nothing to collect: the button is off and says why rather than opening a sheet.
              disabled={usdtUnits(accounts[kind].available) === 0n}
              data-testid={`holder-collect-${kind}`}
            >
              {t('holder.collect')}
            </button>
            {usdtUnits(accounts[kind].available) === 0n && (
              <span
                className="holder-account__reason"
                data-testid={`holder-collect-${kind}-reason`}
              >
                {t('money:flow.nothingToCollect')}
              </span>
            )}
          </div>
        ))}
      </div>
      <p className="holder-note">{t('holder.collectNote')}</p>
    </section>
  )
}

/**
 * One opening of the collect sheet on the shared flow: the amount and its checks, the
 * confirmation, then the result. The flow's key lives as long as the opening, so a double tap
 * or a retry moves money once.
 */
function CollectBody({
  account,
  available,
  onDone,
}: {
  account: CollectAccount
  available: string
  onDone: () => void
}) {
  const { t } = useTranslation(['holder', 'money', 'translation'])
  const { usdt } = useAmounts()
  const amount = useAmountText(USDT_DECIMALS)
  const collect = useCollectBalance()
  const check = checkCollect(amount.units, available)
  const { live } = liveOf(check, amount.problem !== null, ['amountRequired'])
  const say = (problem: CollectProblem) => t(`collect.problems.${problem}`)
  const from = t(ACCOUNT_LABELS[account])
  const rows = [
    { label: t('collect.from'), value: from },
    { label: t('collect.to'), value: t('collect.toUsdt') },
  ]

  return (
    <MoneyFlow<{ amount: string }, CollectResult>
      testId="collect"
      texts={t('collect', { returnObjects: true })}
      inline
      send={(quote, idempotencyKey) =>
        collect.mutateAsync({ account, amount: quote.amount, idempotencyKey })
      }
      onStale={onDone}
      confirm={(quote) => ({ amount: usdt(quote.amount), rows })}
      result={(result) => ({
        amount: usdt(result.amount),
        rows,
        account: 'usdt',
        log: { to: USDT_LOG, label: t('money:transfer.viewLog'), testId: 'collect-result-log' },
        doneLabel: t('money:transfer.done'),
        onDone,
      })}
    >
      <MoneyForm
        rules={{ check, fieldRefused: amount.problem !== null, say }}
        live={{ text: live && say(live) }}
        submit={t('collect.submit')}
        className="money-form"
      >
        <h2 className="money-sheet__title">{t('collect.title', { account: from })}</h2>
        <Rows rows={[strongRow(t('collect.available'), usdt(available), 'collect-available')]} />
        <FlowAmountField
          amount={amount}
          label={t('collect.amount')}
          placeholder={t('collect.amountHint')}
          all={{ units: usdtUnits(available) }}
        />
      </MoneyForm>
    </MoneyFlow>
  )
}

/** Which account the collect sheet is open for; each opening has its own number. */
export interface CollectOpening {
  account: CollectAccount
  opening: number
}

export function CollectSheet({
  open,
  accounts,
  onClose,
}: {
  open: CollectOpening | null
  accounts: Record<CollectAccount, AccountBalance>
  onClose: () => void
}) {
  return (
    <SheetFrame open={open !== null} onClose={onClose}>
      {open && (
        <div data-testid="collect-sheet">
          {/* A new opening mounts a new body: a fresh amount and a fresh idempotency key. */}
          <CollectBody
            key={open.opening}
            account={open.account}
            available={accounts[open.account].available}
            onDone={onClose}
          />
        </div>
      )}
    </SheetFrame>
  )
}

/** The node and shareholder accounts of a balance, when the balance has both. */
export function collectAccounts(
  accounts: BalanceList | undefined,
): Record<CollectAccount, AccountBalance> | null {
  const node = accounts?.find((a) => a.kind === 'node')
  const shareholder = accounts?.find((a) => a.kind === 'shareholder')
  return node && shareholder ? { node, shareholder } : null
}
