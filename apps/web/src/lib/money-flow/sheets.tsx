// The confirmation sheets of a money flow.
import Button from 'antd-mobile/es/components/button'
import Popup from 'antd-mobile/es/components/popup'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useEscape } from '../ui/use-escape.ts'
import { type Row, Rows } from './rows.tsx'

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

/**
 * The bottom sheet of a money screen; Escape, the mask and the close button close it, except
 * while a request is being sent (`sending`).
 * `className` adds a class of the screen's own to the sheet's body.
 */
export function SheetFrame({
  open,
  sending = false,
  className,
  onClose,
  children,
}: {
  open: boolean
  sending?: boolean
  className?: string
  onClose: () => void
  children: ReactNode
}) {
  useEscape(open && !sending, onClose)
  return (
    <Popup
      visible={open}
      onMaskClick={sending ? undefined : onClose}
      onClose={onClose}
      showCloseButton={!sending}
      bodyClassName={className ? `money-sheet ${className}` : 'money-sheet'}
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
