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
