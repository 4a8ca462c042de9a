import { normalizeLang, type AccountKind, type OutflowKind } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { balanceOptions } from '../api/balance.ts'
import { cutDecimals, formatMoney, SEPARATORS } from '../format.ts'
import { Icon } from '../icons.tsx'
import { mask } from '../mask.ts'
import { useGoBack } from '../navigation.ts'
import { useSession } from '../store.ts'
import { showToast } from '../toast.ts'
import type { AmountProblem } from './amount.ts'
import type { Checked } from './checks.ts'
import { amountText, type AmountText } from './use-amount.ts'
import { needsWalletSignature } from './outflow.ts'
import type { MoneyFlow } from './use-money-flow.ts'
import '../money-form.css'
import './money-flow.css'

/** One line of a quote, a sheet or a result: a label and its value. */
export interface Row {
  label: string
  value: ReactNode
  testId?: string
  strong?: boolean
  mono?: boolean
}

/**
 * The line a view is about (what was bought, the total), drawn strong.
 * @example strongRow('HOPE bought', '5,000 HOPE', 'stake-result-hope')
 */
export const strongRow = (label: string, value: ReactNode, testId: string): Row => ({
  label,
  value,
  strong: true,
  testId,
})

export function Rows({ rows }: { rows: Row[] }) {
  return (
    <dl className="money-rows">
      {rows.map((row) => (
        <div key={row.label}>
          <dt>{row.label}</dt>
          <dd
            className={[row.strong && 'money-rows__strong', row.mono && 'money-mono']
              .filter(Boolean)
              .join(' ')}
            data-testid={row.testId}
          >
            {row.value}
          </dd>
        </div>
      ))}
    </dl>
  )
}

/**
 * The rows of a payment to an address, shown alike in the form, the sheet and the result:
 * where it goes (when known), the fee, the total deducted; test ids `<prefix>-to|fee|total`.
 */
export function paymentRows(
  prefix: string,
  labels: { to: string; fee: string; total: string },
  shown: { to?: string; fee: string; total: string },
): Row[] {
  const to: Row[] =
    shown.to === undefined
      ? []
      : [{ label: labels.to, value: shown.to, mono: true, testId: `${prefix}-to` }]
  return [
    ...to,
    { label: labels.fee, value: shown.fee, testId: `${prefix}-fee` },
    { label: labels.total, value: shown.total, strong: true, testId: `${prefix}-total` },
  ]
}

/** HOPE shown with at most this many decimals (amounts sent keep all 18). */
const HOPE_SHOWN_DECIMALS = 6

/** USDT and HOPE amounts in the user's language; HOPE cut, never rounded up, to 6 decimals. */
export function useAmounts() {
  const { i18n } = useTranslation()
  const lang = normalizeLang(i18n.language)
  return {
    lang,
    usdt: (value: string) => `${formatMoney(value, lang)} USDT`,
    hope: (value: string) => `${formatMoney(cutDecimals(value, HOPE_SHOWN_DECIMALS), lang)} HOPE`,
  }
}

/** `12.5 USDT` in the user's language. */
export function useMoney(): (value: string, currency: string) => string {
  const { i18n } = useTranslation()
  const lang = normalizeLang(i18n.language)
  return (value, currency) => `${formatMoney(value, lang)} ${currency}`
}

/**
 * An amount field that keeps what the user typed and says why it is not an amount, instead of
 * dropping characters behind the user's back.
 */
export function AmountField({
  testId,
  label,
  value,
  onChange,
  unit,
  placeholder,
  problem,
  decimals,
  all,
}: {
  testId: string
  label: string
  value: string
  onChange: (text: string) => void
  unit: string
  placeholder?: string
  problem: AmountProblem | null
  decimals: number
  all?: { label: string; onClick: () => void }
}) {
  const { t, i18n } = useTranslation('money')
  const separators = SEPARATORS[normalizeLang(i18n.language)]
  return (
    <label className="money-field">
      <span className="money-label">{label}</span>
      <span className={`money-input${problem ? ' money-input--bad' : ''}`}>
        <input
          value={value}
          onChange={(event) => onChange(event.target.value)}
          inputMode="decimal"
          placeholder={placeholder}
          autoComplete="off"
          maxLength={40}
          aria-invalid={problem !== null}
          data-testid={`${testId}-amount-input`}
        />
        <span className="money-input__unit">{unit}</span>
        {all && (
          <button
            type="button"
            className="money-input__action"
            onClick={all.onClick}
            data-testid={`${testId}-all`}
          >
            {all.label}
          </button>
        )}
      </span>
      {problem && (
        <span
          className="money-field__problem"
          role="alert"
          data-testid={`${testId}-amount-problem`}
        >
          {t(`flow.amount.${problem}`, { ...separators, decimals })}
        </span>
      )}
    </label>
  )
}

/** The amount field of a screen on the shared flow: every change is a new request (new key). */
export function FlowAmountField({
  flow,
  amount,
  all,
  ...field
}: Omit<
  Parameters<typeof AmountField>[0],
  'value' | 'onChange' | 'problem' | 'decimals' | 'all'
> & {
  flow: Pick<MoneyFlow<unknown, unknown>, 'edit'>
  amount: AmountText
  /** The "all"/"max" button, the amount it fills in, and what it says when that is nothing. */
  all?: { label: string; units: bigint; none?: string }
}) {
  return (
    <AmountField
      {...field}
      value={amount.text}
      onChange={(text) => flow.edit(() => amount.set(text))}
      problem={amount.problem}
      decimals={amount.decimals}
      all={
        all && {
          label: all.label,
          onClick: () =>
            all.units === 0n && all.none
              ? showToast(all.none)
              : flow.edit(() => amount.set(amountText(amount, all.units))),
        }
      }
    />
  )
}

/** The problem text the button's form shows already (a field's or the live problem), if any. */
function saidOnScreen(button: HTMLElement, text: string): HTMLElement | null {
  const form = button.closest('.money-form') ?? button.ownerDocument
  for (const el of form.querySelectorAll<HTMLElement>('.money-field__problem, .money-problem p'))
    if (el.textContent?.trim() === text.trim()) return el
  return null
}

/**
 * The form's button: a refused field has said why already; a problem of the rules is said
 * (the spec's message); an accepted quote opens the sheet.
 */
export function SubmitButton<Problem extends string, Quote>({
  testId,
  label,
  flow,
  check,
  fieldRefused,
  say,
  hold,
  disabled,
}: {
  testId: string
  label: string
  flow: Pick<MoneyFlow<Quote, unknown>, 'open'>
  check: Checked<Problem, Quote>
  fieldRefused: boolean
  say: (problem: Problem) => string
  /** A reason outside the rules not to open the sheet (an address the server would refuse). */
  hold?: string | null
  disabled?: boolean
}) {
  const submit = (button: HTMLElement) => {
    if (fieldRefused) return
    if ('quote' in check && !hold) return flow.open(check.quote)
    const text = 'problem' in check ? say(check.problem) : hold
    if (!text) return
    // One message per problem, in one place: one the form already says is pointed at, not toasted.
    const shown = saidOnScreen(button, text)
    if (shown) return shown.scrollIntoView?.({ block: 'center', behavior: 'smooth' })
    showToast(text)
  }
  return (
    <Button
      block
      color="primary"
      shape="rounded"
      size="large"
      disabled={disabled}
      onClick={(event) => submit(event.currentTarget)}
      data-testid={`${testId}-submit`}
    >
      {label}
    </Button>
  )
}

/** How much USDT is missing, with the way to get it: the recharge screen. */
export function Shortfall({ testId, amount }: { testId: string; amount: string }) {
  const { t } = useTranslation('money')
  const navigate = useNavigate()
  const money = useMoney()
  return (
    <p>
      <span data-testid={`${testId}-shortfall`}>
        {t('flow.shortfall', { amount: money(amount, 'USDT') })}
      </span>{' '}
      <button
        type="button"
        className="money-problem__link"
        onClick={() => void navigate('/recharge')}
        data-testid={`${testId}-go-recharge`}
      >
        {t('flow.goRecharge')}
      </button>
    </p>
  )
}

/**
 * What stops the action now, said while the user types (not only on the button), with the way
 * out where there is one: a shortfall of USDT links to the recharge screen.
 */
export function LiveProblem({
  testId,
  text,
  shortfall,
}: {
  testId: string
  text: string | null
  shortfall?: string | null
}) {
  if (!text) return null
  return (
    <div className="money-problem" role="status" data-testid={`${testId}-problem`}>
      <p>{text}</p>
      {shortfall && <Shortfall testId={testId} amount={shortfall} />}
    </div>
  )
}

/** The sheet of a screen on the shared flow: open, sending and failed come from the flow. */
export function FlowSheet<Quote, Result>({
  flow,
  render,
  ...props
}: {
  flow: MoneyFlow<Quote, Result>
  render: (quote: Quote) => { amount: string; rows: Row[]; blocked?: ReactNode; note?: ReactNode }
} & Omit<
  Parameters<typeof ConfirmSheet>[0],
  'open' | 'amount' | 'rows' | 'sending' | 'failed' | 'onConfirm' | 'onClose'
>) {
  const shown = flow.quote === null ? { amount: '', rows: [] } : render(flow.quote)
  return (
    <ConfirmSheet
      {...props}
      {...shown}
      open={flow.quote !== null}
      sending={flow.state.stage === 'sending'}
      failed={flow.state.stage === 'failed'}
      onConfirm={flow.confirm}
      onClose={flow.close}
    />
  )
}

/** What the wallet is about to sign, said on the sheet before it asks. */
function WalletSignNote({
  testId,
  kind,
  amount,
  address,
}: {
  testId: string
  kind: OutflowKind
  amount: string
  address: string
}) {
  const { t } = useTranslation()
  return (
    <p className="money-sheet__sign" data-testid={`${testId}-sign-note`}>
      <Icon name="holder" />
      <span>
        {t('wallet.signNote', {
          action: t(`wallet.signAction.${kind}`),
          amount,
          address: mask(address),
        })}
      </span>
    </p>
  )
}

/**
 * The sheet of a USDT payment to an address (transfer, withdraw): the amount, where, fee,
 * total, and what the wallet will sign when the payment needs its signature.
 */
export function PaymentSheet<
  Quote extends { amount: string; address: string; fee: string; total: string },
  Result,
>({
  flow,
  labels,
  currency,
  kind,
  ...sheet
}: {
  flow: MoneyFlow<Quote, Result>
  labels: { to: string; fee: string; total: string }
  currency: string
  /** The outflow it is: the wallet signs it unless it is a withdrawal to the own wallet. */
  kind: OutflowKind
} & Omit<Parameters<typeof FlowSheet<Quote, Result>>[0], 'flow' | 'render'>) {
  const money = useMoney()
  const owner = useSession((s) => s.address) ?? ''
  return (
    <FlowSheet
      {...sheet}
      flow={flow}
      render={(quote) => ({
        amount: money(quote.amount, currency),
        rows: paymentRows(`${sheet.testId}-confirm`, labels, {
          to: mask(quote.address),
          fee: money(quote.fee, currency),
          total: money(quote.total, currency),
        }),
        note: needsWalletSignature(kind, owner, quote.address) ? (
          <WalletSignNote
            testId={sheet.testId}
            kind={kind}
            amount={money(quote.amount, currency)}
            address={quote.address}
          />
        ) : undefined,
      })}
    />
  )
}

/** The available balance of a money form and the way to its records. */
export function BalanceCard({
  testId,
  label,
  value,
  records,
}: {
  testId: string
  label: string
  value: string
  records: { to: string; label: string }
}) {
  const navigate = useNavigate()
  return (
    <section className="card money-balance">
      <span className="money-label">{label}</span>
      <span className="money-balance__value" data-testid={`${testId}-available`}>
        {value}
      </span>
      <button
        type="button"
        className="money-link"
        onClick={() => void navigate(records.to)}
        data-testid={`${testId}-records`}
      >
        {records.label}
        <Icon name="chevron" />
      </button>
    </section>
  )
}

/** What a confirmation shows and does, in a sheet of its own or in a sheet already open. */
interface ConfirmProps {
  testId: string
  title: string
  amount: string
  rows: Row[]
  note?: ReactNode
  /** Why this cannot be confirmed now (a shortfall): said in place of the failure, button off. */
  blocked?: ReactNode
  sending: boolean
  failed: boolean
  /** What is known after a request without an answer (the same key is never charged twice). */
  failedText: string
  confirmLabel: string
  onConfirm: () => void
}

/** The confirmation of every money action; `failed` turns its button into a retry. */
export function ConfirmBody({
  testId,
  title,
  amount,
  rows,
  note,
  blocked,
  sending,
  failed,
  failedText,
  confirmLabel,
  onConfirm,
}: ConfirmProps) {
  const { t } = useTranslation()
  return (
    <div data-testid={`${testId}-confirm-sheet`}>
      <h2 className="money-sheet__title">{title}</h2>
      <p className="money-sheet__amount" data-testid={`${testId}-confirm-amount`}>
        {amount}
      </p>
      <Rows rows={rows} />
      {note}
      {blocked}
      {failed && !blocked && (
        <p className="money-sheet__warn" role="alert" data-testid={`${testId}-network-failed`}>
          {failedText}
        </p>
      )}
      <Button
        block
        color="primary"
        shape="rounded"
        size="large"
        loading={sending}
        disabled={sending || Boolean(blocked)}
        onClick={onConfirm}
        data-testid={`${testId}-confirm`}
      >
        {failed && !blocked ? t('common.retry') : confirmLabel}
      </Button>
    </div>
  )
}

/** The confirmation sheet of every money action: {@link ConfirmBody} in a bottom sheet. */
export function ConfirmSheet({
  open,
  onClose,
  ...body
}: ConfirmProps & { open: boolean; onClose: () => void }) {
  return (
    <Popup
      visible={open}
      onMaskClick={body.sending ? undefined : onClose}
      onClose={onClose}
      showCloseButton={!body.sending}
      bodyClassName="money-sheet"
    >
      {open && <ConfirmBody {...body} />}
    </Popup>
  )
}

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
