// A USDT payment to an address (transfer, withdraw): its request, its sheet, its fee and total;
// the note of what the wallet signs, which an activation's sheet shows too.
import { type OutflowKind } from '@hope/api'
import { useTranslation } from 'react-i18next'
import { mask } from '../format/mask.ts'
import { useSession } from '../store.ts'
import { Icon } from '../ui/icons.tsx'
import { useMoney } from './amounts.tsx'
import { needsWalletSignature } from './outflow.ts'
import type { Row } from './rows.tsx'
import type { Confirmation } from './sheets.tsx'

/**
 * What the wallet is about to sign, said on the sheet before it asks (test id
 * `<kind>-sign-note`): the action, the amount as shown, and where it goes or whom it pays for.
 */
export function WalletSignNote({
  kind,
  amount,
  address,
}: {
  kind: OutflowKind
  amount: string
  address: string
}) {
  const { t } = useTranslation()
  const values = { amount, address: mask(address) }
  return (
    <p className="money-sheet__sign" data-testid={`${kind}-sign-note`}>
      <Icon name="holder" />
      <span>
        {kind === 'activate'
          ? t('wallet.signNoteActivate', values)
          : t('wallet.signNote', { ...values, action: t(`wallet.signAction.${kind}`) })}
      </span>
    </p>
  )
}

/** The labels of a payment's lines. */
interface PaymentLabels {
  to: string
  fee: string
  total: string
}

/**
 * The lines of a payment to an address, alike in the form and the sheet: where it goes (when
 * known), the fee, the total deducted; test ids `<prefix>-to|fee|total`.
 */
function paymentRows(
  prefix: string,
  labels: PaymentLabels,
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

/** A payment the rules accepted: decimal strings, as sent and shown. */
interface PaymentQuote {
  address: string
  amount: string
  fee: string
  total: string
}

/**
 * What a USDT payment to an address hands its flow and its form. The outflow's kind is its
 * screen's test id: `<kind>-fee|total` under the form, `<kind>-confirm-to|fee|total` and
 * `<kind>-sign-note` on the sheet.
 * @example const payment = usePayment('withdraw', t('withdraw', { returnObjects: true }), withdraw.mutateAsync)
 */
export function usePayment<Result>(
  /** The outflow it is: the wallet signs it unless it is a withdrawal to the own wallet. */
  kind: OutflowKind,
  labels: PaymentLabels,
  request: (params: { address: string; amount: string; idempotencyKey: string }) => Promise<Result>,
) {
  const money = useMoney()
  const owner = useSession((s) => s.address) ?? ''
  const usdt = (value: string) => money(value, 'USDT')
  return {
    /** The request of a quote: its address and amount, with the flow's idempotency key. */
    send: (quote: PaymentQuote, idempotencyKey: string) =>
      request({ address: quote.address, amount: quote.amount, idempotencyKey }),
    /** The sheet: the amount, where, fee, total, and what the wallet will sign when it must. */
    confirm: (quote: PaymentQuote): Confirmation => ({
      amount: usdt(quote.amount),
      rows: paymentRows(`${kind}-confirm`, labels, {
        to: mask(quote.address),
        fee: usdt(quote.fee),
        total: usdt(quote.total),
      }),
      note: needsWalletSignature(kind, owner, quote.address) ? (
        <WalletSignNote kind={kind} amount={usdt(quote.amount)} address={quote.address} />
      ) : undefined,
    }),
    /** The fee and total of an amount the rules accept, under the form's fields. */
    rows: (fee: string, total: string): Row[] =>
      paymentRows(kind, labels, { fee: usdt(fee), total: usdt(total) }),
  }
}
