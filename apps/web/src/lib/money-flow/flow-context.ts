// What a money screen's flow gives the pieces of its form, so that no screen hands them on.
import { createContext, useContext } from 'react'

/** The flow a piece of a form stands in: the screen's test id prefix and its controls. */
export interface FlowPlace {
  testId: string
  /** Opens the confirmation of a quote the form's rules accepted. */
  open: (quote: unknown) => void
  /** The form changed: the next confirmation is another request with another key. */
  edit: (apply: () => void) => void
}

export const FlowContext = createContext<FlowPlace | null>(null)

/** The flow around a form, its fields and its button (inside `MoneyFlow` only). */
export function useFlowPlace(): FlowPlace {
  const place = useContext(FlowContext)
  if (!place) throw new Error('a money form stands inside MoneyFlow')
  return place
}
