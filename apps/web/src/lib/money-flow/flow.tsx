// The flow of every screen that moves money as one component: form, sheet, result.
import type { ReactNode } from 'react'
import { FlowContext, type FlowPlace } from './flow-context.ts'
import { ResultView } from './result.tsx'
import { ConfirmBody, SheetFrame, type Confirmation } from './sheets.tsx'
import { useMoneyFlow, type FlowControls, type FlowOptions } from './use-money-flow.ts'

/**
 * The words of a flow's sheet and result. A money screen's locale section has them all, so a
 * screen hands its section: `t('withdraw', { returnObjects: true })`.
 */
export interface FlowTexts {
  /** The sheet's title, unless the confirmation names its own. */
  confirmTitle: string
  /** The sheet's button. */
  confirm: string
  /** Said on the sheet after a request without an answer (the same key is never charged twice). */
  networkFailed: string
  /** The result's title. */
  success: string
}

/**
 * The stages of a money action on screen: the screen's form, then the confirmation of the quote
 * its rules accepted (in a sheet, or in place of the form when the form is in a sheet already),
 * then the result. Test ids are the screen's: `<testId>-confirm-sheet`, `<testId>-result`, ….
 * The form's pieces (`MoneyForm`, its fields, `BalanceCard`) take the test id and the flow from
 * here.
 */
export function MoneyFlow<Quote, Result>({
  testId,
  texts,
  send,
  confirm,
  inline = false,
  result,
  children,
  ...options
}: {
  testId: string
  texts: FlowTexts
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
  ) => Omit<Parameters<typeof ResultView>[0], 'testId' | 'title'>
  /** The form; it opens the sheet with `flow.open` and edits through `flow.edit`. */
  children: ReactNode | ((flow: FlowControls<Quote, Result>) => ReactNode)
} & FlowOptions<Result>) {
  const flow = useMoneyFlow(send, options)
  const { state, quote } = flow
  if (state.stage === 'done')
    return <ResultView testId={testId} title={texts.success} {...result(state.result, flow)} />

  // The form's rules answer quotes of this flow: what they accept is this flow's quote.
  const place: FlowPlace = { testId, open: (next) => flow.open(next as Quote), edit: flow.edit }
  const form = () => (
    <FlowContext value={place}>
      {typeof children === 'function' ? children(flow) : children}
    </FlowContext>
  )
  const sending = state.stage === 'sending'
  const shown = quote !== null && confirm(quote)
  const body = shown && (
    <ConfirmBody
      testId={testId}
      {...shown}
      title={shown.title ?? texts.confirmTitle}
      failedText={texts.networkFailed}
      confirmLabel={texts.confirm}
      sending={sending}
      failed={state.stage === 'failed'}
      onConfirm={flow.confirm}
    />
  )
  if (inline) return body || form()
  return (
    <>
      {form()}
      <SheetFrame open={quote !== null} sending={sending} onClose={flow.close}>
        {body}
      </SheetFrame>
    </>
  )
}
