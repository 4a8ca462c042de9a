// The confirmation sheets of a money flow.
import { type OutflowKind } from '@hope/api'
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../icons.tsx'
import { mask } from '../mask.ts'
import { useSession } from '../store.ts'
import { needsWalletSignature } from './outflow.ts'
import type { MoneyFlow } from './use-money-flow.ts'
import { type Row, Rows, paymentRows } from './rows.tsx'
import { useMoney } from './amounts.tsx'

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
