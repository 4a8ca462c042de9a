// The flow of every screen that moves money as one component: form, sheet, result.
import type { ReactNode } from 'react'
import { ResultView } from './result.tsx'
import { ConfirmBody, SheetFrame, type Confirmation } from './sheets.tsx'
import { useMoneyFlow, type FlowControls, type FlowOptions } from './use-money-flow.ts'

/**
 * The stages of a money action on screen: the screen's form, then the confirmation of the quote
 * its rules accepted (in a sheet, or in place of the form when the form is in a sheet already),
 * then the result. Test ids are the screen's: `<testId>-confirm-sheet`, `<testId>-result`, ….
 */
export function MoneyFlow<Quote, Result>({
  testId,
  send,
  confirm,
  inline = false,
  result,
  children,
  ...options
}: {
  testId: string
  /** The screen's request (its mutation), sent with the flow's idempotency key. */
  send: (quote: Quote, idempotencyKey: string) => Promise<Result>
  /** What the confirmation shows of a quote. */
  confirm: (quote: Quote) => Confirmation
  /** The form is in a sheet already: the confirmation takes its place there. */
  inline?: boolean
  /** What the result view shows of the answer; `flow.reset` starts again. */
  result: (
    result: Result,
    flow: FlowControls<Quote, Result>,
  ) => Omit<Parameters<typeof ResultView>[0], 'testId'>
  /** The form, which opens the sheet with `flow.open` and edits through `flow.edit`. */
  children: (flow: FlowControls<Quote, Result>) => ReactNode
} & FlowOptions<Result>) {
  const flow = useMoneyFlow(send, options)
  const { state, quote } = flow
  if (state.stage === 'done') return <ResultView testId={testId} {...result(state.result, flow)} />

  const sending = state.stage === 'sending'
  const body = quote !== null && (
    <ConfirmBody
      testId={testId}
      {...confirm(quote)}
      sending={sending}
      failed={state.stage === 'failed'}
      onConfirm={flow.confirm}
    />
  )
  if (inline) return body || children(flow)
  return (
    <>
      {children(flow)}
      <SheetFrame open={quote !== null} sending={sending} onClose={flow.close}>
        {body}
      </SheetFrame>
    </>
  )
}
