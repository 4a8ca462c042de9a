import { useRef, useState } from 'react'
import { useConfirmationKey } from '../api/idempotency-key.ts'
import { ApiError } from '../api/request.ts'

/** Where a money action stands: editing, confirming (sheet open), sending, failed (no answer), done. */
export type FlowStage<Quote, Result> =
  | { stage: 'editing' }
  | { stage: 'confirming'; quote: Quote }
  | { stage: 'sending'; quote: Quote }
  | { stage: 'failed'; quote: Quote }
  | { stage: 'done'; result: Result }

/**
 * The next stage after the request settled: an answer with a refusal closes the sheet (the
 * request wrapper has said why), silence keeps it open as failed, to retry with the same key.
 */
export function settle<Quote, Result>(
  quote: Quote,
  outcome: { result: Result } | { error: unknown },
): FlowStage<Quote, Result> {
  if ('result' in outcome) return { stage: 'done', result: outcome.result }
  const unanswered = outcome.error instanceof ApiError && outcome.error.kind !== 'http'
  return unanswered ? { stage: 'failed', quote } : { stage: 'editing' }
}

/** What a screen does with its flow: open the sheet, send, close, edit, start again. */
export interface FlowControls<Quote, Result> {
  state: FlowStage<Quote, Result>
  /** The quote of the open sheet, if any. */
  quote: Quote | null
  /** Opens the confirmation sheet for a quote the rules accepted; the key is taken now. */
  open: (quote: Quote) => void
  /** Sends (or resends after a failure) with the same idempotency key; a double tap sends once. */
  confirm: () => void
  close: () => void
  /** The form changed: the next confirmation is another request with another key. */
  edit: (apply: () => void) => void
  /** Back to an empty form after a result. */
  reset: () => void
}

export interface FlowOptions<Result> {
  onDone?: (result: Result) => void
  /**
   * The server answered no (the request wrapper said why), or the sheet of a request without an
   * answer was closed: what the screen showed may be stale.
   */
  onStale?: () => void
}

/**
 * The one flow of every screen that moves money: amount → checks → confirmation sheet → sending
 * → result, or failed with a retry that keeps the idempotency key. `send` is the screen's plain
 * async action (wagmi's layering: action, then this hook).
 */
export function useMoneyFlow<Quote, Result>(
  send: (quote: Quote, idempotencyKey: string) => Promise<Result>,
  { onDone, onStale }: FlowOptions<Result> = {},
): FlowControls<Quote, Result> {
  const [state, setState] = useState<FlowStage<Quote, Result>>({ stage: 'editing' })
  const key = useConfirmationKey()
  const sending = useRef(false)
  const quote = 'quote' in state ? state.quote : null

  return {
    state,
    quote,
    open: (next) => {
      key.take()
      setState({ stage: 'confirming', quote: next })
    },
    confirm: () => {
      if (!quote || sending.current) return
      sending.current = true
      setState({ stage: 'sending', quote })
      send(quote, key.take())
        .then(
          (result) => {
            key.drop()
            setState(settle(quote, { result }))
            onDone?.(result)
          },
          (error: unknown) => {
            if (!(error instanceof ApiError)) console.error(error)
            const next = settle<Quote, Result>(quote, { error })
            setState(next)
            if (next.stage === 'editing') onStale?.()
          },
        )
        .finally(() => {
          sending.current = false
        })
    },
    close: () => {
      if (sending.current) return
      if (state.stage === 'failed') onStale?.()
      setState({ stage: 'editing' })
    },
    edit: (apply) => {
      key.drop()
      apply()
    },
    reset: () => {
      key.drop()
      setState({ stage: 'editing' })
    },
  }
}
