import type { ReactNode } from 'react'
import './status-tag.css'

/** pending: waiting on someone; moving: on its way; done; bad: refused or failed; off: withdrawn. */
export type Tone = 'pending' | 'moving' | 'done' | 'bad' | 'off'

/** A status word in the colour of where the money stands. */
export function StatusTag({
  tone,
  testId,
  children,
}: {
  tone: Tone
  testId?: string
  children: ReactNode
}) {
  return (
    <span className={`status-tag status-tag--${tone}`} data-tone={tone} data-testid={testId}>
      {children}
    </span>
  )
}

/** A record's head: its amount, then its status tag (`record-list.css`). */
export function RecordHead({
  amount,
  amountTestId,
  tone,
  statusTestId,
  children,
}: {
  amount: ReactNode
  amountTestId: string
  tone: Tone
  statusTestId: string
  children: ReactNode
}) {
  return (
    <div className="record__head">
      <span className="record__amount" data-testid={amountTestId}>
        {amount}
      </span>
      <StatusTag tone={tone} testId={statusTestId}>
        {children}
      </StatusTag>
    </div>
  )
}
