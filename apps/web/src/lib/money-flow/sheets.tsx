// The confirmation sheets of a money flow.
import { type OutflowKind } from '@hope/api'
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../ui/icons.tsx'
import { mask } from '../format/mask.ts'
import { useSession } from '../store.ts'
import { needsWalletSignature } from './outflow.ts'
import { type Row, Rows, paymentRows } from './rows.tsx'
import { useMoney } from './amounts.tsx'

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
 * What the confirmation of a USDT payment to an address (transfer, withdraw) shows: the
 * amount, where, fee, total, and what the wallet will sign when the payment needs its signature.
 * The outflow's kind is its screen's test id: `<kind>-confirm-to|fee|total`, `<kind>-sign-note`.
 */
export function usePaymentConfirmation(
  /** The outflow it is: the wallet signs it unless it is a withdrawal to the own wallet. */
  kind: OutflowKind,
  labels: { to: string; fee: string; total: string },
): (quote: { amount: string; address: string; fee: string; total: string }) => Confirmation {
  const money = useMoney()
  const owner = useSession((s) => s.address) ?? ''
  const usdt = (value: string) => money(value, 'USDT')
  return (quote) => ({
    amount: usdt(quote.amount),
    rows: paymentRows(`${kind}-confirm`, labels, {
      to: mask(quote.address),
      fee: usdt(quote.fee),
      total: usdt(quote.total),
    }),
    note: needsWalletSignature(kind, owner, quote.address) ? (
      <WalletSignNote
        testId={kind}
        kind={kind}
        amount={usdt(quote.amount)}
        address={quote.address}
      />
    ) : undefined,
  })
}

/** What the confirmation of one quote shows. */
export interface Confirmation {
  /** A title of its own, in place of the flow's (one that names what is confirmed). */
  title?: string
  amount: string
  rows: Row[]
  note?: ReactNode
  /** Why this cannot be confirmed now (a shortfall): said in place of the failure, button off. */
  blocked?: ReactNode
}

/** What a confirmation shows, says and does, in a sheet of its own or in a sheet already open. */
interface ConfirmProps extends Confirmation {
  testId: string
  title: string
  /** What is known after a request without an answer (the same key is never charged twice). */
  failedText: string
  confirmLabel: string
  sending: boolean
  failed: boolean
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

/** The bottom sheet of a confirmation; it stays open while the request is sent. */
export function SheetFrame({
  open,
  sending,
  onClose,
  children,
}: {
  open: boolean
  sending: boolean
  onClose: () => void
  children: ReactNode
}) {
  return (
    <Popup
      visible={open}
      onMaskClick={sending ? undefined : onClose}
      onClose={onClose}
      showCloseButton={!sending}
      bodyClassName="money-sheet"
    >
      {children}
    </Popup>
  )
}

/** The confirmation sheet of a money action off the shared flow: {@link ConfirmBody} in a sheet. */
export function ConfirmSheet({
  open,
  onClose,
  ...body
}: ConfirmProps & { open: boolean; onClose: () => void }) {
  return (
    <SheetFrame open={open} sending={body.sending} onClose={onClose}>
      {open && <ConfirmBody {...body} />}
    </SheetFrame>
  )
}
